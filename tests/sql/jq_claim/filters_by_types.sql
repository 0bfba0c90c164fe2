-- jq_claim with p_types claims only jobs of those types; null means any.
begin;
select plan(5);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from jq.jq_enqueue_many($$[
    {"type": "image.resize", "queue": "claim_types", "priority": 9},
    {"type": "email.send",   "queue": "claim_types"},
    {"type": "pdf.render",   "queue": "claim_types"},
    {"type": "email.send",   "queue": "claim_types"}
]$$) \gset

select set_eq($$select type from jq.jq_claim('claim_types', 'w1', 10, '5 minutes', array['email.send'])$$,
              array['email.send', 'email.send'], 'only email.send jobs are claimed');
select is_empty($$select * from jq.jq_claim('claim_types', 'w1', 10, '5 minutes', array['nothing.here'])$$,
                'a type with no jobs claims nothing');
select is_empty($$select * from jq.jq_claim('claim_types', 'w1', 10, '5 minutes', array[]::text[])$$,
                'an empty types array claims nothing');
select set_eq($$select type from jq.jq_claim('claim_types', 'w1', 10, '5 minutes', array['pdf.render', 'image.resize'])$$,
              array['pdf.render', 'image.resize'], 'several types may be given');
select is((select count(*)::int from jq.jobs where queue = 'claim_types' and status = 'pending'), 0,
          'every job was claimed exactly by its type');

select * from finish();
rollback;
