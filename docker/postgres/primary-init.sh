#!/bin/sh
# Runs once, when the primary's data directory is created (the official image's /docker-entrypoint-initdb.d/):
# a role the streaming replica connects as, and a pg_hba.conf line letting it stream.
set -eu
: "${REPLICATION_USER:?}" "${REPLICATION_PASSWORD:?}"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    --set user="$REPLICATION_USER" --set password="$REPLICATION_PASSWORD" <<'SQL'
CREATE ROLE :"user" WITH REPLICATION LOGIN PASSWORD :'password';
SQL
echo "host replication $REPLICATION_USER all scram-sha-256" >> "$PGDATA/pg_hba.conf"
