/* sqlite-driver: a small program around the SQLite amalgamation for the
 * symbolizer benchmark. It exercises the parts of SQLite a real program
 * reaches (tables and indexes, FTS5, R-tree, JSON, window functions, math
 * functions) so that their code is linked in and has been run; the bench
 * only symbolizes addresses in the binary.
 *
 *   sqlite-driver [ROWS]
 */
#include <stdio.h>
#include <stdlib.h>
#include "sqlite3.h"

static int exec_or_die(sqlite3 *db, const char *sql)
{
	char *err = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "sqlite-driver: %s: %s\n", sql, err ? err : "?");
		sqlite3_free(err);
		exit(1);
	}
	return 0;
}

static long long scalar(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "sqlite-driver: %s: %s\n", sql, sqlite3_errmsg(db));
		exit(1);
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int main(int argc, char **argv)
{
	int rows = argc > 1 ? atoi(argv[1]) : 1000;
	sqlite3 *db;
	sqlite3_stmt *ins;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		return 1;
	exec_or_die(db, "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, price REAL, tags TEXT);"
			"CREATE INDEX item_price ON item(price);"
			"CREATE VIRTUAL TABLE doc USING fts5(title, body);"
			"CREATE VIRTUAL TABLE box USING rtree(id, x0, x1, y0, y1);");
	if (sqlite3_prepare_v2(db, "INSERT INTO item(name, price, tags) VALUES(?1, ?2, json_array(?3, ?1))", -1, &ins, NULL) != SQLITE_OK)
		return 1;
	exec_or_die(db, "BEGIN");
	for (int i = 0; i < rows; i++) {
		char name[32];
		snprintf(name, sizeof name, "item-%d", i * 7919 % 1000);
		sqlite3_bind_text(ins, 1, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(ins, 2, (i * 37 % 1000) / 10.0);
		sqlite3_bind_int(ins, 3, i % 13);
		sqlite3_step(ins);
		sqlite3_reset(ins);
	}
	exec_or_die(db, "COMMIT");
	sqlite3_finalize(ins);
	exec_or_die(db, "INSERT INTO doc SELECT name, 'the quick brown fox number ' || id || ' jumps over ' || tags FROM item;"
			"INSERT INTO box SELECT id, price, price + 1, id % 100, id % 100 + 2 FROM item;"
			"ANALYZE;");
	long long a = scalar(db, "SELECT count(*) FROM doc WHERE doc MATCH 'fox AND jumps'");
	long long b = scalar(db, "SELECT count(*) FROM box WHERE x0 > 10 AND x1 < 50 AND y0 >= 5");
	long long c = scalar(db, "SELECT sum(json_array_length(tags)) FROM item");
	long long d = scalar(db, "SELECT max(r) FROM (SELECT rank() OVER (PARTITION BY name ORDER BY price) AS r FROM item)");
	long long e = scalar(db, "SELECT CAST(sum(sqrt(price) * ln(price + 1)) AS INTEGER) FROM item");
	long long f = scalar(db, "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 500) "
			      "SELECT count(*) FROM n JOIN item ON item.id = n.x WHERE item.name LIKE 'item-1%'");
	printf("fts %lld, rtree %lld, json %lld, window %lld, math %lld, cte %lld\n", a, b, c, d, e, f);
	sqlite3_close(db);
	return 0;
}
