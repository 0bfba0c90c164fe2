-- Runs last, on every install: records the release just installed (read by
-- jq_version()) and leaves the one line the installer shows in the session
-- setting jq.install_report (install.sql echoes it after the commit): "jq
-- 0.4.0 installed", "jq upgraded from 0.3.0 to 0.4.0" or "jq 0.4.0 is up to
-- date". The release number itself is set in bootstrap.sql.
do $record$
declare
    v_release text := current_setting('jq.installer_release');
    v_before  text := nullif(current_setting('jq.installed_release'), '');
begin
    insert into jq.release as r (release, installed_at) values (v_release, now())
    on conflict (singleton) do update
       set release = excluded.release, installed_at = excluded.installed_at
     where r.release is distinct from excluded.release;
    -- Session-wide (false): it outlives the commit, for install.sql to echo.
    perform set_config('jq.install_report',
                       case when v_before is null then format('jq %s installed', v_release)
                            when v_before = v_release then format('jq %s is up to date', v_release)
                            else format('jq upgraded from %s to %s', v_before, v_release) end,
                       false);
end
$record$;
