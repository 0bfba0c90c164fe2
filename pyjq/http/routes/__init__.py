"""The routes of the jq HTTP API, one module per resource; create_app (pyjq.http.app) adds them.

Each module has an ``add_*_routes(router, db, <token check>)`` function that adds its routes to
``router`` (create_app passes ``app.router``), given the Database and the token checks create_app
built; common.py holds what they share (the error responses, the JSON answer, the TokenCheck type).

    module            function                 routes                                           scope
    jobs.py           add_job_routes           POST /jobs, GET /jobs/{id}, POST /jobs/{id}/cancel  producer
    schedules.py      add_schedule_routes      PUT|GET|DELETE /schedules/{name}, GET /schedules    admin (GET: viewer)
    dead_letters.py   add_dead_letter_routes   GET /dead-letter, POST /dead-letter/retry           admin (GET: viewer)
    operations.py     add_operations_routes    GET /queues, GET /workers                        viewer
    fairness.py       add_fairness_routes      GET /tenants, GET /tenant-policies,              admin (GET: viewer)
                                               PUT|DELETE /tenant-policies/{queue}/{tenant},
                                               PUT|DELETE /key-limits/{type}
    operations.py     add_probe_routes         GET /metrics (admin), GET /healthz (no token)
    storage.py        add_storage_routes       GET /storage                                     viewer

Read-only operator routes take the ``viewer`` check (a viewer or admin token), changing ones
``admin``. The operator console (pyjq.http.ui, under /ui) is not here: create_app mounts it.

A new route goes into the module of its resource (a new resource gets a new module, called from
create_app). A route about what is running, such as GET /workers, goes into add_operations_routes,
after GET /queues, tagged "operations". The OpenAPI document lists paths in the order they are added.

Why routes are added to app.router rather than built as separate APIRouters and included: recent
FastAPI keeps an included router as one lazy entry of app.router.routes, and the 405 handler
(pyjq.http.errors) reads each route's methods there for the Allow header.
"""
