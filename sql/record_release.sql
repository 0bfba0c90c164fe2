-- Runs last, on every install: records the release just installed (read by
-- jq_version()) and prints the one line the installer shows, on stderr in
-- psql: "jq 0.4.0 installed", "jq upgraded from 0.3.0 to 0.4.0" or "jq 0.4.0
-- is up to date". The release number itself is set in bootstrap.sql.
do $record$
declare
    v_release text := current_setting('jq.installer_release');
    v_before  text := nullif(current_setting('jq.installed_release'), '');
begin
    insert into jq.release as r (release, installed_at) values (v_release, now())
    on conflict (singleton) do update
       set release = excluded.release, installed_at = excluded.installed_at
     where r.release is distinct from excluded.release;
    -- INFO reaches the client whatever client_min_messages says.
    if v_before is null then
        raise info 'jq % installed', v_release;
    elsif v_before = v_release then
        raise info 'jq % is up to date', v_release;
    else
        raise info 'jq upgraded from % to %', v_before, v_release;
    end if;
end
$record$;
