"""`pyjq dev` / `make run`: jq on a local PostgreSQL, with a demo of what it does."""
