# clickhouse.sh - start and stop Debian's clickhouse-server (18.16) for the export
# tests: a config, data folder and logs of its own under a test's directory,
# 127.0.0.1 only, stopped by its pid; ch_query asks it over HTTP (python3's
# urllib: the tests run under sh, and tracebox's own client is what is tested).
# SPDX-License-Identifier: GPL-2.0-only

# ch_query PORT SQL: the server's answer to SQL (POST /), its body; an error's text on stdout too
ch_query() {
	python3 -c '
import sys, urllib.request, urllib.error
try:
    r = urllib.request.urlopen("http://127.0.0.1:%s/" % sys.argv[1], sys.argv[2].encode(), timeout=60)
    sys.stdout.buffer.write(r.read())
except urllib.error.HTTPError as e:
    sys.stdout.buffer.write(e.read())
    sys.exit(1)
except OSError as e:
    print(e)
    sys.exit(2)
' "$1" "$2"
}

# ch_start DIR HTTP_PORT TCP_PORT [REMOTE_SERVERS_XML]: start a server in DIR,
# wait until it answers (up to 60 s); sets CH_PID. Returns 1 when it does not come up.
# A DIR/users.xml already there is kept (a test's own users); else Debian's is copied.
ch_start() {
	d=$1
	mkdir -p "$d/data/" "$d/tmp/" "$d/log" "$d/user_files/" "$d/format_schemas/"
	[ -e "$d/users.xml" ] || cp /etc/clickhouse-server/users.xml "$d/users.xml"
	cat >"$d/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
    <logger><level>warning</level><log>$d/log/server.log</log><errorlog>$d/log/error.log</errorlog><size>10M</size><count>1</count></logger>
    <http_port>$2</http_port>
    <tcp_port>$3</tcp_port>
    <listen_host>127.0.0.1</listen_host>
    <max_connections>64</max_connections>
    <keep_alive_timeout>10</keep_alive_timeout>
    <max_concurrent_queries>16</max_concurrent_queries>
    <uncompressed_cache_size>8589934592</uncompressed_cache_size>
    <mark_cache_size>104857600</mark_cache_size>
    <path>$d/data/</path>
    <tmp_path>$d/tmp/</tmp_path>
    <user_files_path>$d/user_files/</user_files_path>
    <format_schema_path>$d/format_schemas/</format_schema_path>
    <users_config>users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>UTC</timezone>
    <mlock_executable>false</mlock_executable>
    <builtin_dictionaries_reload_interval>3600</builtin_dictionaries_reload_interval>
    <max_session_timeout>3600</max_session_timeout>
    <default_session_timeout>60</default_session_timeout>
    <remote_servers>${4:-}</remote_servers>
</yandex>
XML
	/usr/sbin/clickhouse-server --config-file="$d/config.xml" >"$d/log/stdout" 2>&1 &
	CH_PID=$!
	echo "$CH_PID" >"$d/pid"
	for _ in $(seq 120); do
		[ "$(ch_query "$2" 'SELECT 1' 2>/dev/null)" = 1 ] && return 0
		kill -0 "$CH_PID" 2>/dev/null || return 1
		sleep 0.5
	done
	return 1
}

# ch_cpu PID: user + system CPU seconds the process used so far (/proc/PID/stat)
ch_cpu() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f\n", ($12 + $13) / hz }' "/proc/$1/stat"
}

# ch_stop DIR: stop the server started in DIR, by its pid, and wait for it
ch_stop() {
	[ -s "$1/pid" ] || return 0
	p=$(cat "$1/pid")
	kill "$p" 2>/dev/null || true
	for _ in $(seq 60); do kill -0 "$p" 2>/dev/null || break; sleep 0.5; done
	kill -9 "$p" 2>/dev/null || true
	rm -f "$1/pid"
}
