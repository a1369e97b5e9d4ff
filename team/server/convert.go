package server

import (
	"github.com/agenthooks/agenthooks/team/store"
	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
)

func hookFromProto(p *teamv1.TeamHook) store.Hook {
	return store.Hook{
		ID:               p.GetId(),
		Step:             p.GetHookStep(),
		ScriptName:       p.GetScriptName(),
		OperatingSystems: p.GetOperatingSystems(),
		Active:           p.GetIsActive(),
		ScriptContent:    p.GetScriptContent(),
		Matcher:          p.GetMatcher(),
		TimeoutSeconds:   p.GetTimeoutSeconds(),
		FailClosed:       p.GetFailClosed(),
	}
}

func hookToProto(h store.Hook) *teamv1.TeamHook {
	return &teamv1.TeamHook{
		Id:               h.ID,
		HookStep:         h.Step,
		ScriptName:       h.ScriptName,
		OperatingSystems: h.OperatingSystems,
		IsActive:         h.Active,
		ScriptContent:    h.ScriptContent,
		Matcher:          h.Matcher,
		TimeoutSeconds:   h.TimeoutSeconds,
		FailClosed:       h.FailClosed,
		TeamId:           h.TeamID,
		UpdatedAtUnixMs:  h.UpdatedAtMs,
		UpdatedBy:        h.UpdatedBy,
	}
}

func hooksToProto(hooks []store.Hook) []*teamv1.TeamHook {
	out := make([]*teamv1.TeamHook, len(hooks))
	for i, h := range hooks {
		out[i] = hookToProto(h)
	}
	return out
}

func teamToProto(t store.Team) *teamv1.Team {
	return &teamv1.Team{Id: t.ID, Name: t.Name, Revision: t.Revision, CreatedAtUnixMs: t.CreatedAtMs,
		Audit: t.Audit, AuditRetentionDays: int32(t.AuditRetentionDays), SandboxJson: t.SandboxJSON}
}

func tokenToProto(t store.Token) *teamv1.Token {
	return &teamv1.Token{Id: t.ID, Name: t.Name, Role: string(t.Role), TeamId: t.TeamID, CreatedAtUnixMs: t.CreatedAtMs}
}

func changeToProto(c store.Change) *teamv1.HookChange {
	return &teamv1.HookChange{
		Id: c.ID, TeamId: c.TeamID, HookId: c.HookID, Action: c.Action, Actor: c.Actor,
		AtUnixMs: c.AtMs, Revision: c.Revision, ScriptName: c.ScriptName,
	}
}
