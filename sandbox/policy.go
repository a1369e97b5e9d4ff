package sandbox

// Type is sandbox.json's "type": what the sandbox lets a command write.
type Type string

// The types Cursor documents, from the loosest to the strictest.
const (
	// InsecureNone turns the sandbox off: the command runs open.
	InsecureNone Type = "insecure_none"
	// WorkspaceReadwrite lets the command write the workspace roots, the
	// additional read-write paths and the temporary folders (the default).
	WorkspaceReadwrite Type = "workspace_readwrite"
	// WorkspaceReadonly lets it write only the temporary folders.
	WorkspaceReadonly Type = "workspace_readonly"
)

// strictness orders the types: a higher-trust layer's type can only be
// replaced by a stricter one.
func (t Type) strictness() int {
	switch t {
	case InsecureNone:
		return 0
	case WorkspaceReadwrite:
		return 1
	case WorkspaceReadonly:
		return 2
	}
	return -1
}

// Read boundaries (readBoundary): where a command may read.
const (
	// ReadSystem lets it read every file the user can (the default).
	ReadSystem = "system"
	// ReadWorkspace limits reads to the workspace, the granted paths and
	// the system folders programs need to start (SystemReadPaths).
	ReadWorkspace = "workspace"
)

// Network defaults (networkPolicy.default).
const (
	NetAllow = "allow"
	NetDeny  = "deny"
)

// Behaviours where the kernel cannot sandbox (whenUnavailable, an
// agenthooks addition to sandbox.json).
const (
	// UnavailableRefuse refuses the command, with the reason (the default).
	UnavailableRefuse = "refuse"
	// UnavailableRunOpen runs it unsandboxed; hooks see sandbox: false.
	UnavailableRunOpen = "run_unsandboxed"
)

// Grant is one path a layer grants, with the file that grants it, so a
// message can name it.
type Grant struct {
	Path string `json:"path"`
	From string `json:"from"`
}

// Rule is one network pattern (a host name, *.domain, an IP address or a
// CIDR block), with the file that wrote it.
type Rule struct {
	Pattern string `json:"pattern"`
	From    string `json:"from"`
}

// Network is the effective networkPolicy.
type Network struct {
	Default     string `json:"default"`
	DefaultFrom string `json:"default_from,omitempty"`
	Allow       []Rule `json:"allow,omitempty"`
	Deny        []Rule `json:"deny,omitempty"`
}

// Open says the command may connect anywhere directly: default allow with
// nothing denied. Anything else goes through the proxy.
func (n Network) Open() bool { return n.Default == NetAllow && len(n.Deny) == 0 }

// Policy is the effective sandbox for a workspace: every layer merged.
// The zero Policy is "no sandbox configured".
type Policy struct {
	// Configured says some layer has a sandbox.json: without one the
	// sandbox is off, as it was before sandbox.json existed.
	Configured bool   `json:"configured"`
	Type       Type   `json:"type"`
	TypeFrom   string `json:"type_from,omitempty"`
	// Roots are the workspace roots the type applies to.
	Roots                  []string `json:"roots"`
	ReadBoundary           string   `json:"read_boundary"`
	ReadBoundaryFrom       string   `json:"read_boundary_from,omitempty"`
	ReadwritePaths         []Grant  `json:"readwrite_paths,omitempty"`
	ReadonlyPaths          []Grant  `json:"readonly_paths,omitempty"`
	DisableTmpWrite        bool     `json:"disable_tmp_write"`
	DisableTmpWriteFrom    string   `json:"disable_tmp_write_from,omitempty"`
	EnableSharedBuildCache bool     `json:"enable_shared_build_cache"`
	Network                Network  `json:"network"`
	Unavailable            string   `json:"when_unavailable"`
	UnavailableFrom        string   `json:"when_unavailable_from,omitempty"`
	// Files are the sandbox files that made it, lowest layer first.
	Files []string `json:"files,omitempty"`
}

// Enabled says commands run inside the sandbox: some layer configured it
// and the type is not insecure_none.
func (p Policy) Enabled() bool { return p.Configured && p.Type != InsecureNone }
