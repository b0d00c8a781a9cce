#!/bin/sh
# The streaming replica: on first start, clone the primary with pg_basebackup -R (which writes standby.signal and
# primary_conninfo), then hand over to the official image's entrypoint, which finds a data directory and starts
# PostgreSQL as a hot standby. Later starts skip the clone and resume streaming.
set -eu
: "${PRIMARY_HOST:?}" "${REPLICATION_USER:?}" "${REPLICATION_PASSWORD:?}"
PGDATA="${PGDATA:-/var/lib/postgresql/data}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    mkdir -p "$PGDATA"
    chown postgres:postgres "$PGDATA"
    chmod 700 "$PGDATA"
    until PGPASSWORD="$REPLICATION_PASSWORD" gosu postgres pg_basebackup --host="$PRIMARY_HOST" \
        --username="$REPLICATION_USER" --pgdata="$PGDATA" --wal-method=stream --write-recovery-conf \
        --checkpoint=fast --no-password; do
        echo "waiting for the primary at $PRIMARY_HOST"
        rm -rf "${PGDATA:?}"/*
        sleep 2
    done
    # primary_conninfo written by -R carries the password; keep it readable by postgres only.
    chmod 600 "$PGDATA/postgresql.auto.conf"
fi
exec docker-entrypoint.sh postgres -c hot_standby=on
