#!/bin/sh
# The chart's backup job, database part (templates/backup-cronjob.yaml): the same backup as
# `npm run backup` (services/server/src/backup/postgres-backup.ts, format
# ledgerline-postgres-backup/1, restored by `npm run restore`), written with the PostgreSQL
# image's own tools, because the dump tool must be at least the server's major version and
# the product's image carries none.
#
# One pg_dump of the whole database locks every table of every firm in one transaction and
# overflows a default server's lock table at fifty to a hundred firms. So: a session holds one
# exported snapshot for the whole run; the platform (every schema but the firms') is dumped
# from it, then the firms' schemas in parts whose tables fit a quarter of the lock table (or
# BACKUP_TABLES_PER_PART, or one firm per part with BACKUP_PER_FIRM=1); the manifest and the
# parts are then packed, in restore order, into one tar file.
#
# Needs POSTGRES_URL; writes BACKUP_OUT (default /work/portal-backup.tar). POSIX sh, psql,
# pg_dump, awk, tar, mkfifo: the Alpine and Debian PostgreSQL images both have them.
set -eu

out="${BACKUP_OUT:-/work/portal-backup.tar}"
work="$(mktemp -d "$(dirname "$out")/.ledgerline-backup.XXXXXX")"
holder=""
finish() {
  [ -n "$holder" ] && kill "$holder" 2>/dev/null || true
  rm -rf "$work"
}
trap finish EXIT
fail() { echo "backup: $*" >&2; exit 1; }

# The snapshot every part reads: a session that exports it and stays in its transaction.
mkfifo "$work/session"
psql -X -q -A -t -v ON_ERROR_STOP=1 "$POSTGRES_URL" <"$work/session" >"$work/snapshot" &
holder=$!
exec 3>"$work/session"
printf 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;\nSELECT pg_export_snapshot();\n' >&3
tries=0
until [ -s "$work/snapshot" ]; do
  kill -0 "$holder" 2>/dev/null || fail "could not open a snapshot"
  tries=$((tries + 1)); [ "$tries" -le 600 ] || fail "no snapshot within 60 s"
  sleep 0.1
done
snapshot="$(head -n 1 "$work/snapshot")"

# Reads within that snapshot, so the firm list is the one the dumps see.
in_snapshot() {
  psql -X -q -A -t -F '|' -v ON_ERROR_STOP=1 "$POSTGRES_URL" \
    -c 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' -c "SET TRANSACTION SNAPSHOT '$snapshot'" -c "$1" -c 'COMMIT'
}
# Firms' schemas: every schema with a migration history except the platform's (as firmSchemas()).
in_snapshot "SELECT n.nspname, count(c.oid) FILTER (WHERE c.relkind IN ('r', 'p'))
               FROM pg_namespace n JOIN pg_class c ON c.relnamespace = n.oid
              WHERE n.nspname <> 'portal'
                AND EXISTS (SELECT 1 FROM pg_class h WHERE h.relnamespace = n.oid AND h.relname = 'schema_migrations' AND h.relkind = 'r')
              GROUP BY n.nspname ORDER BY n.nspname" >"$work/firms"
slots="$(in_snapshot "SELECT current_setting('max_locks_per_transaction')::int
                             * (current_setting('max_connections')::int + current_setting('max_prepared_transactions')::int)")"
if [ "${BACKUP_PER_FIRM:-}" = 1 ]; then budget=1
elif [ -n "${BACKUP_TABLES_PER_PART:-}" ]; then budget="$BACKUP_TABLES_PER_PART"
else budget=$((slots / 4)); fi
case "$budget" in ''|*[!0-9]*|0) fail "BACKUP_TABLES_PER_PART must be a whole number above 0" ;; esac

# Parts in name order, each at most $budget tables (a firm larger than that goes alone):
# one line per part, "file tables schema…" (as planParts()).
awk -F '|' -v budget="$budget" '
  function flush() { if (n) { part++; printf "firms-%05d.dump %d%s\n", part, tables, names }; n = 0; tables = 0; names = "" }
  { if (n && tables + $2 > budget) flush(); n++; tables += $2; names = names " " $1 }
  END { flush() }' "$work/firms" >"$work/plan"

# pg_dump without nested loops, as npm run backup runs it (postgres-backup.ts,
# dumpSessionOptions): its own query of materialized-view dependencies is otherwise planned to
# read all of pg_depend once per row, over 100 s a part at 1,000 firms. The operator's
# PGOPTIONS stay, after ours.
export PGOPTIONS="-c enable_nestloop=off${PGOPTIONS:+ $PGOPTIONS}"
excludes=""
while IFS='|' read -r schema _; do excludes="$excludes --exclude-schema=$schema"; done <"$work/firms"
# shellcheck disable=SC2086 # one argument per firm
pg_dump --format=custom --snapshot="$snapshot" --file="$work/platform.dump" $excludes "$POSTGRES_URL"
echo "backup: platform dumped; $(wc -l <"$work/firms" | tr -d ' ') firms in $(wc -l <"$work/plan" | tr -d ' ') parts of at most $budget tables" >&2
while read -r file _ schemas; do
  args=""
  for schema in $schemas; do args="$args --schema=$schema"; done
  # shellcheck disable=SC2086
  pg_dump --format=custom --snapshot="$snapshot" --file="$work/$file" $args "$POSTGRES_URL"
  echo "backup: $file dumped" >&2
done <"$work/plan"
printf 'COMMIT;\n' >&3
exec 3>&-
wait "$holder"
holder=""

# The manifest `npm run restore` reads first.
awk -v version="${PRODUCT_VERSION:-unknown}" -v created="$(date -u +%Y-%m-%dT%H:%M:%SZ)" -v slots="$slots" -v budget="$budget" '
  BEGIN { printf "{\n  \"format\": \"ledgerline-postgres-backup/1\",\n  \"productVersion\": \"%s\",\n  \"createdAt\": \"%s\",\n  \"lockTableSlots\": %d,\n  \"tablesPerPart\": %d,\n  \"parts\": [", version, created, slots, budget }
  { printf "%s\n    { \"file\": \"%s\", \"tables\": %d, \"schemas\": [", (NR > 1 ? "," : ""), $1, $2
    for (i = 3; i <= NF; i++) printf "%s\"%s\"", (i > 3 ? ", " : ""), $i
    printf "] }" }
  END { printf "%s]\n}\n", (NR ? "\n  " : "") }' "$work/plan" >"$work/backup.json"

# Restore reads the manifest, the platform, then the parts in order: the archive keeps that order.
set -- backup.json platform.dump
while read -r file _; do set -- "$@" "$file"; done <"$work/plan"
tar -C "$work" -cf "$out.partial" "$@"
mv "$out.partial" "$out"
echo "backup: $out written" >&2
