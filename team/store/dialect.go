package store

import (
	"database/sql"
	"strconv"
	"strings"
)

// dialect is what differs between the databases the store runs on. The
// schema and the queries are written once, with `?` parameters and
// {{word}} placeholders in the migrations; a dialect fills those in.
type dialect struct {
	name string
	// numbered: parameters are $1, $2, … instead of ?.
	numbered bool
	// words fill the migrations' {{word}} placeholders.
	words map[string]string
	// migrationLock, run first in the migration transaction, keeps two
	// servers from migrating at once; "" when the write transaction
	// already excludes every other writer.
	migrationLock string
	// readTx opens the transactions that read several tables at one
	// point in time.
	readTx *sql.TxOptions
	// isUnique reports a unique-constraint violation.
	isUnique func(error) bool
	// arrays: the driver takes Go slices as array parameters, so a
	// batch is one statement over unnest(…) rather than one per row.
	arrays bool
	// skipLocked ends the subquery choosing rows to delete: on a
	// database with row locks, two replicas pruning at once take
	// different rows instead of waiting on (or deadlocking over) each
	// other's.
	skipLocked string
	// noIndex prefixes a column in a condition that must not choose
	// the index read (SQLite's unary +); "" where the planner's
	// statistics choose.
	noIndex string
}

// rebind turns the `?` parameters of a query into the dialect's. The
// queries hold no string literal with a question mark.
func (d dialect) rebind(query string) string {
	if !d.numbered {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] != '?' {
			b.WriteByte(query[i])
			continue
		}
		n++
		b.WriteByte('$')
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}
