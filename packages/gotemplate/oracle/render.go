// Oracle for @svc/gotemplate: renders each case with Go's real text/template and the webhook
// functions, so the TypeScript implementation can be compared byte for byte. Stdlib only.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
	"text/template"
	"unicode"
	"unicode/utf8"
)

type inCase struct {
	Name     string          `json:"name"`
	Template string          `json:"template"`
	Data     json.RawMessage `json:"data"`
	TName    string          `json:"tname"`
	Option   string          `json:"option"`
}

type outCase struct {
	Name   string `json:"name"`
	Output string `json:"output"`
	Error  string `json:"error,omitempty"`
	Phase  string `json:"phase,omitempty"`
}

// sprint mirrors how the webhook functions turn any value into text.
func sprint(v interface{}) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

func title(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + strings.ToLower(s[n:])
}

func jsonString(v interface{}) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	_ = enc.Encode(sprint(v))
	b := bytes.TrimRight(buf.Bytes(), "\n")
	return string(b[1 : len(b)-1])
}

func escapeArgs(esc func(string) string) func(args ...interface{}) string {
	return func(args ...interface{}) string {
		if len(args) == 1 {
			if s, ok := args[0].(string); ok {
				return esc(s)
			}
		}
		return esc(fmt.Sprint(args...))
	}
}

var webhookFuncs = template.FuncMap{
	"title":      title,
	"upper":      strings.ToUpper,
	"lower":      strings.ToLower,
	"urlquery":   escapeArgs(url.QueryEscape),
	"urlencode":  escapeArgs(url.QueryEscape),
	"urlpath":    escapeArgs(url.PathEscape),
	"pathescape": escapeArgs(url.PathEscape),
	"jsonString": jsonString,
}

func render(c inCase) outCase {
	name := c.TName
	if name == "" {
		name = "t"
	}
	out := outCase{Name: c.Name}
	t := template.New(name).Funcs(webhookFuncs)
	if c.Option != "" {
		t.Option(c.Option)
	}
	t, err := t.Parse(c.Template)
	if err != nil {
		out.Error, out.Phase = err.Error(), "parse"
		return out
	}
	var data interface{}
	if len(c.Data) > 0 {
		if err := json.Unmarshal(c.Data, &data); err != nil {
			out.Error, out.Phase = "bad case data: "+err.Error(), "data"
			return out
		}
	}
	var buf bytes.Buffer
	err = t.Execute(&buf, data)
	out.Output = buf.String()
	if err != nil {
		out.Error, out.Phase = err.Error(), "exec"
	}
	return out
}

func main() {
	var cases []inCase
	dec := json.NewDecoder(os.Stdin)
	if err := dec.Decode(&cases); err != nil {
		fmt.Fprintln(os.Stderr, "oracle: bad input:", err)
		os.Exit(2)
	}
	outs := make([]outCase, 0, len(cases))
	for _, c := range cases {
		outs = append(outs, render(c))
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(outs); err != nil {
		os.Exit(1)
	}
}
