package match

// The parser turns a JavaScript pattern into this small tree, and the two
// emitters write the tree back out in the syntax of Go's regexp or of
// regexp2. Going through a tree rather than patching the pattern text is
// what lets both engines agree with JavaScript: every construct is spelled
// out in a form whose meaning does not depend on the engine's dialect.

// flags are the inline modifiers in scope at a node. JavaScript itself only
// knows them as RegExp flags (and, since ES2025, as (?ims-ims:...) groups);
// we accept them inline and let the backtracking engine apply them.
type flags uint8

const (
	flagIgnoreCase flags = 1 << iota // i: case-insensitive
	flagMultiline                    // m: ^ and $ also match at line terminators
	flagDotAll                       // s: . also matches line terminators
)

type kind uint8

const (
	kLiteral         kind = iota // one character: r
	kAny                         // .
	kClass                       // [...], \d, \s ...: set
	kBegin                       // ^
	kEnd                         // $
	kWordBoundary                // \b
	kNotWordBoundary             // \B
	kGroup                       // (...), (?:...), (?<name>...): capture > 0 if capturing
	kLook                        // (?=...) (?!...) (?<=...) (?<!...): behind, negate
	kBackref                     // \1, \k<name>: capture
	kSetFlags                    // (?i) on its own: on, off until the end of the enclosing group
	kFlagGroup                   // (?i-s:...): on, off inside
	kRepeat                      // sub[0] repeated min..max (max < 0: unbounded), lazy
	kConcat                      // subs in sequence
	kAlternate                   // subs as alternatives
)

type node struct {
	kind    kind
	r       rune
	set     *charSet
	flags   flags // flags in scope (kAny, kBegin, kEnd, word boundaries)
	on, off flags // kSetFlags, kFlagGroup
	capture int   // kGroup, kBackref
	behind  bool  // kLook
	negate  bool  // kLook
	min     int   // kRepeat
	max     int   // kRepeat; -1 means no upper bound
	lazy    bool  // kRepeat
	subs    []*node
}

// maxRepeat is where braced counts saturate. V8 clamps them the same way;
// no input is long enough for the difference to matter.
const maxRepeat = 1<<31 - 1
