-- Migration 18 (release 0.6.0): schedules fire from SQL (jq_schedules_fire_due,
-- docs/schedules.md "Firing"), so the one tunable of firing that pyjq's
-- scheduler held becomes a setting.
--
--   jq.settings gains
--     schedule_missed_grace  how late a slot may be and still fire under
--                            missed = none (5 minutes, the default of
--                            Scheduler(missed_grace=...) up to 0.5.0): a
--                            claim that is merely late fires it, one after an
--                            outage does not.
do $migration$
begin
if not jq._migration_pending(18) then
    return;
end if;

alter table jq.settings
    add column schedule_missed_grace interval not null default interval '5 minutes',
    add constraint settings_schedule_missed_grace_range
        check (schedule_missed_grace between interval '0' and interval '1 day');
comment on column jq.settings.schedule_missed_grace is
    'How late a slot of a schedule with missed = none may be and still fire (jq_schedules_fire_due); older missed slots are skipped.';

insert into jq.migrations (version, release, name) values (18, '0.6.0', 'schedule_missed_grace');
end
$migration$;
