#!/bin/sh
# mkhttpseeds.sh - write the http target's seed corpus (tests/fuzz/corpus/http): responses as ClickHouse and other servers send them, and the malformed ones tests/export-http.test serves. Usage: mkhttpseeds.sh DIR
# Each file starts with fuzz_http.c's control byte: bits 0-3 bytes per read,
# bits 4-5 the body cap (16, 1 KiB, 1 MiB, 16 MiB), bit 6 a failing source.
set -e
out=$(mkdir -p "${1:?usage: mkhttpseeds.sh DIR}" && cd "$1" && pwd)
seed() {   # seed NAME CONTROL TEXT (printf %b escapes)
	{ printf "\\$(printf %03o "$2")"; printf '%b' "$3"; } >"$out/seed-$1"
}
H='HTTP/1.1 200 OK\r\n'
CH='Date: Fri, 04 Dec 2026 18:00:00 GMT\r\nConnection: Keep-Alive\r\nContent-Type: text/tab-separated-values; charset=UTF-8\r\nX-ClickHouse-Server-Display-Name: host\r\nTransfer-Encoding: chunked\r\nKeep-Alive: timeout=10\r\n\r\n'
seed clickhouse-select 32 "$H${CH}21\r\ncommon_recording\tUInt64\nid\tInt64\n\r\n0\r\n\r\n"
seed clickhouse-insert 32 "${H}Date: Fri, 04 Dec 2026 18:00:00 GMT\r\nConnection: Keep-Alive\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: 0\r\nKeep-Alive: timeout=10\r\n\r\n"
seed clickhouse-error 32 "HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain; charset=UTF-8\r\nTransfer-Encoding: chunked\r\n\r\n5f\r\nCode: 60, e.displayText() = DB::Exception: Table db.t doesn't exist., e.what() = DB::Exception\n\r\n0\r\n\r\n"
seed keep-alive-three 1 "${H}Content-Length: 3\r\n\r\nOk.${H}Transfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"
seed chunk-ext-trailers 3 "${H}Transfer-Encoding: chunked\r\n\r\n3;a=b ; c = \"q\\\\\"x\"\r\nabc\r\n00A\r\n0123456789\r\n0;last\r\nX-T: 1\r\nY:\r\n\r\n"
seed continue-then-200 0 "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n${H}Content-Length: 1\r\n\r\nx"
seed close-delimited 21 "HTTP/1.0 200 OK\nContent-Type: text/plain\n\nthe body up to the end"
seed cap16-chunks 0 "${H}Transfer-Encoding: chunked\r\n\r\n8\r\n01234567\r\n9\r\n012345678\r\n0\r\n\r\n"
seed chunk-zzzz 0 "${H}Transfer-Encoding: chunked\r\n\r\nZZZZ\r\n\r\n"
seed chunk-no-crlf 2 "${H}Transfer-Encoding: chunked\r\n\r\n3\r\nabcXY0\r\n\r\n"
seed cl-cut 16 "${H}Content-Length: 100\r\n\r\nOk."
seed cl-and-chunked 0 "${H}Content-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n"
seed obs-fold 0 "${H}X: a\r\n b\r\nContent-Length: 0\r\n\r\n"
seed garbage 0 '\026\003\001\000\245garbage that is no HTTP\r\n\r\n\000\377'
seed timeout 64 "${H}Content-Length: 10\r\n\r\nabc"
