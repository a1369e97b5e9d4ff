package event

// Permission is a gating answer. The empty Permission is "no opinion",
// which is deliberately distinct from Allow: a host may keep its own
// permission prompt unless some hook explicitly allowed.
type Permission string

// The permissions, from least to most restrictive.
const (
	NoOpinion Permission = ""
	Allow     Permission = "allow"
	Ask       Permission = "ask"
	Deny      Permission = "deny"
)

// Rank orders permissions by restrictiveness: deny > ask > allow > none.
func (p Permission) Rank() int {
	switch p {
	case Allow:
		return 1
	case Ask:
		return 2
	case Deny:
		return 3
	}
	return 0
}
