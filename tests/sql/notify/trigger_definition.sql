-- The wake-up trigger: one statement-level AFTER INSERT trigger on jq.jobs
-- with a transition table, and no trigger on update or delete, so claim,
-- complete, fail, heartbeat and release never notify.
-- (Delivery happens at commit, which a rolled-back pgTAP file never reaches;
-- the Python tests LISTEN for real notifications.)
begin;
select plan(8);

select has_trigger('jq', 'jobs', 'jobs_notify_ready', 'jq.jobs has the jobs_notify_ready trigger');
select trigger_is('jq', 'jobs', 'jobs_notify_ready', 'jq', '_notify_ready',
                  'it runs jq._notify_ready()');

create temp table trg as
select t.tgtype::int as tgtype, t.tgenabled, t.tgnewtable
  from pg_trigger t
 where t.tgrelid = 'jq.jobs'::regclass and t.tgname = 'jobs_notify_ready';

select is((select tgtype & 1 from trg), 0, 'it is a statement-level trigger (not FOR EACH ROW)');
select is((select tgtype & (2 | 64) from trg), 0, 'it fires AFTER (not BEFORE or INSTEAD OF)');
select is((select tgtype & (4 | 8 | 16 | 32) from trg), 4, 'it fires on INSERT only');
select is((select tgnewtable::text from trg), 'new_jobs', 'it sees the inserted rows through a transition table');
select is((select tgenabled from trg), 'O'::"char", 'it is enabled');

select is((select count(*)::int from pg_trigger t
            where t.tgrelid = 'jq.jobs'::regclass and not t.tgisinternal
              and t.tgtype::int & (8 | 16 | 32) <> 0),
          0, 'no trigger on jq.jobs fires on update, delete or truncate');

select * from finish();
rollback;
