-- Migration 14 (release 0.6.0): schedules fire from SQL (jq_schedules_fire_due,
-- docs/schedules.md "Firing"), so the one tunable of firing that pyjq's
-- scheduler held becomes a setting.
--
--   jq.settings gains
--     schedule_fire_batch    how many due schedules one jq_tick call fires
--                            (1,000): a call stays short, the next one goes on.
--     schedule_missed_grace  how late a slot may be and still fire under
--                            missed = none (5 minutes, the default of
--                            Scheduler(missed_grace=...) up to 0.5.0): a
--                            claim that is merely late fires it, one after an
--                            outage does not.
do $migration$
begin
if not jq._migration_pending(14) then
    return;
end if;

alter table jq.settings
    add column schedule_fire_batch integer not null default 1000,
    add constraint settings_schedule_fire_batch_range check (schedule_fire_batch between 1 and 100000),
    add column schedule_missed_grace interval not null default interval '5 minutes',
    add constraint settings_schedule_missed_grace_range
        check (schedule_missed_grace between interval '0' and interval '1 day');
comment on column jq.settings.schedule_fire_batch is
    'How many due schedules one jq_tick call fires (jq_schedules_fire_due); more are fired by the next calls, at once.';
comment on column jq.settings.schedule_missed_grace is
    'How late a slot of a schedule with missed = none may be and still fire (jq_schedules_fire_due); older missed slots are skipped.';

insert into jq.migrations (version, release, name) values (14, '0.6.0', 'schedule_missed_grace');
end
$migration$;
