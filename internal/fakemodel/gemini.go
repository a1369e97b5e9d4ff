package fakemodel

import (
	"encoding/json"
	"maps"
	"net/http"
	"strings"
)

// Gemini is a fake Gemini API (generativelanguage, v1beta) for Gemini CLI,
// which is pointed at it with GOOGLE_GEMINI_BASE_URL and any
// GEMINI_API_KEY. It answers
//
//   - POST /v1beta/models/{model}:streamGenerateContent?alt=sse and
//     :generateContent with the script's step when the request offers tools
//     (the agent's own turns);
//   - :generateContent without tools (Gemini CLI's utility calls: the model
//     router's complexity score, the next-speaker check, …) with a small
//     JSON object matching the requested schema, or "OK";
//   - :countTokens with an estimate;
//   - anything else with a 404 in the API's error shape (and records it,
//     so a test can see what an agent wanted).
type Gemini struct {
	recorder
	script Script
}

// NewGemini starts a fake Gemini API that plays script. Close it when done.
func NewGemini(script Script) *Gemini {
	g := &Gemini{script: script}
	g.start(g.serve)
	return g
}

// geminiRequest is the part of a GenerateContentRequest the fake reads.
type geminiRequest struct {
	Contents []struct {
		Role  string           `json:"role"`
		Parts []map[string]any `json:"parts"`
	} `json:"contents"`
	Tools            []json.RawMessage `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType string         `json:"responseMimeType"`
		ResponseSchema   map[string]any `json:"responseSchema"`
		ResponseJSON     map[string]any `json:"responseJsonSchema"`
	} `json:"generationConfig"`
}

// functionResponses counts the tool results in the conversation.
func (r *geminiRequest) functionResponses() int {
	n := 0
	for _, c := range r.Contents {
		for _, p := range c.Parts {
			if _, ok := p["functionResponse"]; ok {
				n++
			}
		}
	}
	return n
}

// ToolResults returns the tool results the agent sent, each as the JSON of
// a functionResponse's response, in the order first seen (a result sent
// again with a later request is listed once).
func (g *Gemini) ToolResults() []string {
	var out []string
	seen := map[string]bool{}
	for _, q := range g.Requests() {
		var r geminiRequest
		if json.Unmarshal(q.Body, &r) != nil {
			continue
		}
		for _, c := range r.Contents {
			for _, p := range c.Parts {
				fr, ok := p["functionResponse"].(map[string]any)
				if !ok {
					continue
				}
				b, _ := json.Marshal(fr["response"])
				if s := string(b); !seen[s] {
					seen[s] = true
					out = append(out, s)
				}
			}
		}
	}
	return out
}

func (g *Gemini) serve(w http.ResponseWriter, req *http.Request, body []byte) {
	// /v1beta/models/gemini-2.5-flash:streamGenerateContent
	rest, ok := strings.CutPrefix(req.URL.Path, "/v1beta/models/")
	model, method, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 || req.Method != http.MethodPost {
		geminiError(w, http.StatusNotFound, "NOT_FOUND", "the fake Gemini API has no "+req.Method+" "+req.URL.Path)
		return
	}
	var r geminiRequest
	if err := json.Unmarshal(body, &r); err != nil {
		geminiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "request body: "+err.Error())
		return
	}
	switch method {
	case "countTokens":
		writeJSON(w, http.StatusOK, map[string]any{"totalTokens": len(body)/4 + 1})
	case "streamGenerateContent":
		sseHeaders(w)
		parts := g.reply(&r)
		if text, ok := parts[0]["text"].(string); ok && len(text) > 8 {
			// A text answer comes in two chunks, as a real stream does.
			half := len(text) / 2
			sse(w, geminiResponse(model, []map[string]any{{"text": text[:half]}}, ""))
			parts = []map[string]any{{"text": text[half:]}}
		}
		sse(w, geminiResponse(model, parts, "STOP"))
	case "generateContent":
		writeJSON(w, http.StatusOK, geminiResponse(model, g.reply(&r), "STOP"))
	default:
		geminiError(w, http.StatusNotFound, "NOT_FOUND", "the fake Gemini API has no method "+method)
	}
}

// reply is the model's content for a request: the script's step for the
// agent's turns, a utility answer otherwise.
func (g *Gemini) reply(r *geminiRequest) []map[string]any {
	if len(r.Tools) == 0 {
		return []map[string]any{{"text": utilityAnswer(r.GenerationConfig.ResponseMimeType,
			r.GenerationConfig.ResponseSchema, r.GenerationConfig.ResponseJSON)}}
	}
	s := g.script.step(r.functionResponses())
	if s.Tool != "" {
		return []map[string]any{{"functionCall": map[string]any{"name": s.Tool, "args": s.Args}}}
	}
	return []map[string]any{{"text": s.Text}}
}

// utilityAnswer answers a request without tools: JSON when JSON is asked
// for, with the fields of the schemas Gemini CLI is known to ask for.
func utilityAnswer(mime string, schemas ...map[string]any) string {
	if mime != "application/json" {
		return "OK"
	}
	props := map[string]any{}
	for _, s := range schemas {
		if p, ok := s["properties"].(map[string]any); ok {
			maps.Copy(props, p)
		}
	}
	out := map[string]any{}
	for k, v := range props {
		switch k {
		case "next_speaker":
			out[k] = "user" // the model is done: the turn ends
		case "complexity_score":
			out[k] = 10
		default:
			typ, _ := v.(map[string]any)["type"].(string)
			switch strings.ToLower(typ) {
			case "integer", "number":
				out[k] = 1
			case "boolean":
				out[k] = false
			case "array":
				out[k] = []any{}
			case "object":
				out[k] = map[string]any{}
			default:
				out[k] = "ok"
			}
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

func geminiResponse(model string, parts []map[string]any, finish string) map[string]any {
	cand := map[string]any{
		"content": map[string]any{"role": "model", "parts": parts},
		"index":   0,
	}
	if finish != "" {
		cand["finishReason"] = finish
	}
	return map[string]any{
		"candidates": []any{cand},
		"usageMetadata": map[string]any{
			"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110,
		},
		"modelVersion": model,
	}
}

func geminiError(w http.ResponseWriter, code int, status, msg string) {
	writeJSON(w, code, map[string]any{"error": map[string]any{"code": code, "message": msg, "status": status}})
}
