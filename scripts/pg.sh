#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests: scripts/pg.sh start|stop|restart|url
#
# Listens only on 127.0.0.1 (port DOGCASE_PG_PORT, default 54329), trust auth on loopback, database and
# role "dogcase" (the role may create databases, for pytest-django's test database). The cluster lives in
# DOGCASE_PG_DIR (default /tmp/dogcase-pg-PORT) and `stop` removes it; with DOGCASE_PG_KEEP=1, `start` starts
# a stopped cluster found there again instead of starting over (make bench-scale keeps its data sets so). initdb refuses to run as root, so
# as root the cluster belongs to the "postgres" OS user; as anyone else it belongs to that user.
set -euo pipefail

port="${DOGCASE_PG_PORT:-54329}"
dir="${DOGCASE_PG_DIR:-/tmp/dogcase-pg-$port}"
data="$dir/data"
url="postgres://dogcase@127.0.0.1:$port/dogcase"

log() { echo "pg.sh: $*" >&2; }

pg_bindir() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

ensure_installed() {
    if [[ -n "$(pg_bindir)" && -x "$(pg_bindir)/initdb" ]]; then
        return
    fi
    if [[ $(id -u) -ne 0 ]]; then
        log "PostgreSQL server binaries are missing: sudo apt-get install postgresql"
        exit 1
    fi
    log "installing PostgreSQL from Debian"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y --no-install-recommends postgresql; then
        apt-get update
        apt-get install -y --no-install-recommends postgresql
    fi
}

# Run a command as the cluster's owner.
as_owner() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

is_running() {
    [[ -f "$data/postmaster.pid" ]] && as_owner "$(pg_bindir)/pg_ctl" -D "$data" status >/dev/null 2>&1
}

# Start the server on the cluster in $data and wait until it accepts connections.
launch() {
    local bin="$1"
    # Test-only cluster: durability settings off for speed; the socket stays inside the cluster folder.
    as_owner "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        start >/dev/null || {
        cat "$dir/server.log" >&2
        exit 1
    }
    for _ in $(seq 1 60); do
        if "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then
            break
        fi
        sleep 0.5
    done
    "$bin/pg_isready" -h 127.0.0.1 -p "$port" >/dev/null || {
        log "server did not become ready; log follows"
        cat "$dir/server.log" >&2
        exit 1
    }
}

start() {
    ensure_installed
    local bin
    bin="$(pg_bindir)"
    if is_running; then
        log "already running on 127.0.0.1:$port"
        echo "$url"
        return
    fi
    # DOGCASE_PG_KEEP=1: a cluster left stopped (a reboot) is started again with its databases.
    if [[ "${DOGCASE_PG_KEEP:-0}" == 1 && -f "$data/PG_VERSION" ]]; then
        rm -f "$data/postmaster.pid"
        launch "$bin"
        log "ready on 127.0.0.1:$port (kept cluster in $dir)"
        echo "$url"
        return
    fi
    # A leftover folder from a killed run: start over.
    rm -rf "$dir"
    mkdir -p "$dir"
    if [[ $(id -u) -eq 0 ]]; then
        chown postgres: "$dir"
    fi
    as_owner "$bin/initdb" -D "$data" -U postgres --auth-local=trust --auth-host=trust \
        -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        exit 1
    }
    launch "$bin"
    "$bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
        -c "CREATE ROLE dogcase LOGIN CREATEDB" \
        -c "CREATE DATABASE dogcase OWNER dogcase" >/dev/null
    log "ready on 127.0.0.1:$port (cluster in $dir)"
    echo "$url"
}

stop() {
    local bin
    bin="$(pg_bindir)"
    if [[ -n "$bin" && -f "$data/postmaster.pid" ]]; then
        as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null || true
    fi
    rm -rf "$dir"
    log "stopped and removed $dir"
}

# Stop the server and start it again on the same cluster: its buffers empty, as a restarted server finds them
# (make bench-scale measures from there).
restart() {
    local bin
    bin="$(pg_bindir)"
    if is_running; then
        as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    fi
    rm -f "$data/postmaster.pid"
    launch "$bin"
    log "restarted on 127.0.0.1:$port (cluster in $dir)"
    echo "$url"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
restart) restart ;;
url) echo "$url" ;;
*)
    echo "usage: $0 start|stop|restart|url" >&2
    exit 2
    ;;
esac
