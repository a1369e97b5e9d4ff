// Package faketeam is an in-memory team server for tests: the real
// generated Connect handler over real HTTP on 127.0.0.1, serving one
// team's hooks to one member token, and recording every request.
package faketeam

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/agenthooks/agenthooks/team/teamv1"
	"github.com/agenthooks/agenthooks/team/teamv1/teamv1connect"
)

// Request is one GetTeamHooks call the server received.
type Request struct {
	Authorization string
	Msg           *teamv1.GetTeamHooksRequest
}

// Server serves one team.
type Server struct {
	// URL is the server's base URL.
	URL string
	// Token is the member token it accepts.
	Token string

	mu       sync.Mutex
	teamID   int64
	name     string
	revision int64
	hooks    []*teamv1.TeamHook
	raw      bool
	requests []Request
	audit    bool
	uploads  []*teamv1.UploadDecisionsRequest
	failUp   bool
	sandbox  string
}

// New starts a server for team id named name, accepting token; it stops
// when the test ends.
func New(tb testing.TB, id int64, name, token string) *Server {
	tb.Helper()
	s := &Server{Token: token, teamID: id, name: name, revision: 1}
	mux := http.NewServeMux()
	mux.Handle(teamv1connect.NewTeamHooksServiceHandler(s))
	hs := httptest.NewServer(mux)
	tb.Cleanup(hs.Close)
	s.URL = hs.URL
	return s
}

// Hook is an active hook for every system.
func Hook(id int64, step, name, script string) *teamv1.TeamHook {
	return &teamv1.TeamHook{Id: id, HookStep: step, ScriptName: name, ScriptContent: script, IsActive: true}
}

// SetHooks replaces the team's hooks and bumps its revision.
func (s *Server) SetHooks(hooks ...*teamv1.TeamHook) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hooks = nil
	for _, h := range hooks {
		s.hooks = append(s.hooks, proto.Clone(h).(*teamv1.TeamHook))
	}
	s.revision++
}

// SetTeam changes the team the token belongs to, and bumps the revision.
func (s *Server) SetTeam(id int64, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.teamID, s.name = id, name
	s.revision++
}

// SetRevision sets the team's revision, as a server that numbers each
// team's revisions separately would.
func (s *Server) SetRevision(rev int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.revision = rev
}

// Revision is the team's current revision.
func (s *Server) Revision() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.revision
}

// SetRaw makes the server ignore the request's filters and
// known_revision: every hook, always, as a careless server would.
func (s *Server) SetRaw(raw bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.raw = raw
}

// SetAudit turns the team's audit on or off.
func (s *Server) SetAudit(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.audit = on
}

// SetSandbox sets the team's sandbox.json and bumps the revision.
func (s *Server) SetSandbox(data string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sandbox = data
	s.revision++
}

// FailUploads makes UploadDecisions answer "unavailable" while fail is set.
func (s *Server) FailUploads(fail bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failUp = fail
}

// Uploads returns the UploadDecisions calls received so far, refused
// ones included: what left the member machine.
func (s *Server) Uploads() []*teamv1.UploadDecisionsRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.uploads)
}

// UploadDecisions implements the service: it records every call, and
// refuses it unless the audit is on.
func (s *Server) UploadDecisions(_ context.Context, req *connect.Request[teamv1.UploadDecisionsRequest]) (*connect.Response[teamv1.UploadDecisionsResponse], error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.uploads = append(s.uploads, proto.Clone(req.Msg).(*teamv1.UploadDecisionsRequest))
	if tok, ok := strings.CutPrefix(req.Header().Get("Authorization"), "Bearer "); !ok || tok != s.Token {
		return nil, connect.NewError(connect.CodeUnauthenticated, errors.New("unknown token"))
	}
	if !s.audit {
		return nil, connect.NewError(connect.CodeFailedPrecondition, errors.New("the team's audit is off"))
	}
	if s.failUp {
		return nil, connect.NewError(connect.CodeUnavailable, errors.New("the database does not answer"))
	}
	return connect.NewResponse(&teamv1.UploadDecisionsResponse{Accepted: int32(len(req.Msg.GetDecisions()))}), nil
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// GetTeamHooks implements the service, as Cursor's team hooks API
// describes it (docs/team.md).
func (s *Server) GetTeamHooks(_ context.Context, req *connect.Request[teamv1.GetTeamHooksRequest]) (*connect.Response[teamv1.GetTeamHooksResponse], error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	auth := req.Header().Get("Authorization")
	s.requests = append(s.requests, Request{Authorization: auth, Msg: proto.Clone(req.Msg).(*teamv1.GetTeamHooksRequest)})
	if tok, ok := strings.CutPrefix(auth, "Bearer "); !ok || tok != s.Token {
		return nil, connect.NewError(connect.CodeUnauthenticated, errors.New("unknown token"))
	}
	resp := &teamv1.GetTeamHooksResponse{TeamId: s.teamID, TeamName: s.name, Revision: s.revision, Audit: s.audit}
	if !s.raw && req.Msg.GetKnownRevision() == s.revision {
		resp.Unchanged = true
		return connect.NewResponse(resp), nil
	}
	resp.SandboxJson = s.sandbox
	for _, h := range s.hooks {
		if !s.raw && !wanted(h, req.Msg) {
			continue
		}
		c := proto.Clone(h).(*teamv1.TeamHook)
		c.TeamId = s.teamID
		resp.Hooks = append(resp.Hooks, c)
	}
	return connect.NewResponse(resp), nil
}

// wanted applies the request's filters.
func wanted(h *teamv1.TeamHook, req *teamv1.GetTeamHooksRequest) bool {
	if req.GetActiveOnly() && !h.GetIsActive() {
		return false
	}
	os := req.GetOperatingSystem()
	return os == "" || len(h.GetOperatingSystems()) == 0 || slices.Contains(h.GetOperatingSystems(), os)
}
