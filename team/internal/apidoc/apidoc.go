// Package apidoc renders the team API's reference (every method of
// team.proto with its request and answer fields, and every message they
// hold) as the markdown section of docs/team.md, so that the page cannot
// drift from the proto: `go generate ./team` rewrites the section and a
// test fails when it differs.
package apidoc

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Begin and End mark the generated section in docs/team.md.
const (
	Begin = "<!-- api reference: generated from team/proto/team.proto by go generate ./team; do not edit -->"
	End   = "<!-- end of the api reference -->"
)

type field struct {
	name, typ, doc string
	repeated       bool
	number         string
}

type message struct {
	name, doc string
	fields    []field
}

type method struct {
	name, req, resp, doc string
}

type service struct {
	name, doc string
	methods   []method
}

type file struct {
	services []service
	messages map[string]*message
}

var (
	messageRE = regexp.MustCompile(`^message (\w+) \{`)
	serviceRE = regexp.MustCompile(`^service (\w+) \{`)
	fieldRE   = regexp.MustCompile(`^(repeated )?([\w.]+) (\w+) = (\d+);`)
	rpcRE     = regexp.MustCompile(`^rpc (\w+)\((\w+)\) returns \((\w+)\)`)
	optionRE  = regexp.MustCompile(`^option [^;]*;`)
)

// parse reads the declarations of a proto file written as team.proto
// is: one service or message per block, comments before what they
// describe or after a field on its line.
func parse(src string) (*file, error) {
	f := &file{messages: map[string]*message{}}
	var pending []string
	var msg *message
	var svc *service
	inRPC := false // inside an rpc's { options }
	for n, line := range strings.Split(src, "\n") {
		code, trailing, _ := strings.Cut(line, "//")
		code = strings.TrimSpace(code)
		if code == "" {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				pending = append(pending, strings.TrimSpace(trailing))
			} else {
				pending = nil
			}
			continue
		}
		doc := strings.Join(pending, " ")
		pending = nil
		if t := strings.TrimSpace(trailing); t != "" {
			doc = strings.TrimSpace(doc + " " + t)
		}
		for code != "" {
			code = strings.TrimSpace(code)
			var m []string
			switch {
			case strings.HasPrefix(code, "syntax") || strings.HasPrefix(code, "package") || strings.HasPrefix(code, "option go_package"):
				code = ""
			case messageRE.MatchString(code):
				m = messageRE.FindStringSubmatch(code)
				msg = &message{name: m[1], doc: doc}
				f.messages[m[1]] = msg
			case serviceRE.MatchString(code):
				m = serviceRE.FindStringSubmatch(code)
				f.services = append(f.services, service{name: m[1], doc: doc})
				svc = &f.services[len(f.services)-1]
			case rpcRE.MatchString(code) && svc != nil:
				m = rpcRE.FindStringSubmatch(code)
				svc.methods = append(svc.methods, method{name: m[1], req: m[2], resp: m[3], doc: doc})
				rest := code[len(m[0]):]
				rest = strings.TrimSpace(rest)
				switch {
				case strings.HasPrefix(rest, "{"):
					rest, inRPC = rest[1:], true // options follow, then }
				case strings.HasPrefix(rest, ";"):
					rest = rest[1:]
				}
				code = rest
				continue
			case fieldRE.MatchString(code) && msg != nil:
				m = fieldRE.FindStringSubmatch(code)
				msg.fields = append(msg.fields, field{repeated: m[1] != "", typ: m[2], name: m[3], number: m[4], doc: doc})
			case optionRE.MatchString(code):
				m = optionRE.FindStringSubmatch(code)
			case code[0] == '}':
				switch {
				case inRPC:
					inRPC = false
				case msg != nil:
					msg = nil
				default:
					svc = nil
				}
				code = code[1:]
				continue
			default:
				return nil, fmt.Errorf("team.proto:%d: cannot read %q", n+1, code)
			}
			if m != nil {
				code = code[len(m[0]):]
			}
		}
	}
	if len(f.services) == 0 {
		return nil, errors.New("team.proto: no service")
	}
	return f, nil
}
