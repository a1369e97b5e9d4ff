package server

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// strictJSON is Connect's JSON codec without its tolerance of unknown
// fields: a request that misspells a field ({"enabled": true} for
// "audit") is refused, naming the field, rather than taken as the
// field's zero value. A value of the wrong type is refused as before.
type strictJSON struct{ name string }

// strictJSONCodecs replace both names Connect registers for JSON.
var strictJSONCodecs = []connect.Codec{strictJSON{"json"}, strictJSON{"json; charset=utf-8"}}

func (c strictJSON) Name() string { return c.name }

func (strictJSON) Marshal(m any) ([]byte, error) {
	msg, ok := m.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("%T is not a protobuf message", m)
	}
	return protojson.Marshal(msg)
}

func (strictJSON) Unmarshal(data []byte, m any) error {
	msg, ok := m.(proto.Message)
	if !ok {
		return fmt.Errorf("%T is not a protobuf message", m)
	}
	if len(data) == 0 {
		return errors.New("the request is empty: send a JSON object ({} for no fields)")
	}
	if err := protojson.Unmarshal(data, msg); err != nil {
		return fmt.Errorf("%s (fields are the proto's names in lowerCamelCase or as written; docs/team.md lists each method's)", strings.TrimPrefix(err.Error(), "proto: "))
	}
	return nil
}

// refuseUnknown refuses a binary request that carries a field the API
// does not define (protobuf keeps such fields aside rather than failing),
// naming where it is and its number.
func refuseUnknown() connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			if msg, ok := req.Any().(proto.Message); ok {
				if path, num, found := unknownField(msg.ProtoReflect(), ""); found {
					where := "the request"
					if path != "" {
						where = path
					}
					return nil, invalid(where, fmt.Sprintf("carries field number %d, which the API does not define", num),
						"send only the fields of team.proto (docs/team.md lists each method's)")
				}
			}
			return next(ctx, req)
		}
	}
}

// unknownField finds the first unknown field in m or the messages it
// holds; path names the message it is in (hook, decisions[2], …).
func unknownField(m protoreflect.Message, path string) (string, protoreflect.FieldNumber, bool) {
	if raw := m.GetUnknown(); len(raw) > 0 {
		num, _, _ := protowire.ConsumeTag(raw)
		return path, num, true
	}
	var (
		foundPath string
		foundNum  protoreflect.FieldNumber
		found     bool
	)
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Kind() != protoreflect.MessageKind && fd.Kind() != protoreflect.GroupKind {
			return true
		}
		name := join(path, string(fd.Name()))
		switch {
		case fd.IsList():
			l := v.List()
			for i := range l.Len() {
				if foundPath, foundNum, found = unknownField(l.Get(i).Message(), fmt.Sprintf("%s[%d]", name, i)); found {
					return false
				}
			}
		case fd.IsMap():
			return true // the API has no map of messages
		default:
			foundPath, foundNum, found = unknownField(v.Message(), name)
		}
		return !found
	})
	return foundPath, foundNum, found
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
