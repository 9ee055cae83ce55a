package dptest

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"time"
)

// MarshalJSON writes the report as JSON: the field names of its json
// tags, in order; durations in seconds; "+Inf", "-Inf" and "NaN" as
// strings where a number is not finite; the reason with its class, type,
// text and remedy. The schema is in docs/report-json.md.
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report // without this method, so the tree takes its fields
	return json.Marshal(jsonTree(reflect.ValueOf(plain(r))))
}

// object is a JSON object whose keys keep their order.
type object []member

type member struct {
	key   string
	value any
}

// MarshalJSON writes the members in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

var (
	durationType = reflect.TypeFor[time.Duration]()
	textType     = reflect.TypeFor[encoding.TextMarshaler]()
	reasonType   = reflect.TypeFor[Reason]()
)

// jsonTree turns v into values encoding/json writes as the schema says.
func jsonTree(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	switch {
	case v.Type() == durationType:
		return time.Duration(v.Int()).Seconds()
	case v.Type().Implements(reasonType) && v.Kind() != reflect.Interface:
		return reasonTree(v)
	case v.Type().Implements(textType) && v.Kind() != reflect.Interface && v.Kind() != reflect.Pointer:
		text, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return err.Error()
		}
		return string(text)
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return jsonFloat(v.Float())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return jsonTree(v.Elem())
	case reflect.Struct:
		return structTree(v)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return nil
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = jsonTree(v.Index(i))
		}
		return out
	case reflect.Map:
		o := object{}
		iter := v.MapRange()
		for iter.Next() {
			o = append(o, member{fmt.Sprint(iter.Key().Interface()), jsonTree(iter.Value())})
		}
		return o
	}
	return v.Interface()
}

// jsonFloat is a finite number, or its name as a string.
func jsonFloat(f float64) any {
	switch {
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	case math.IsNaN(f):
		return "NaN"
	}
	return f
}

// structTree is a struct's exported fields under their json names,
// skipping "-" and empty fields tagged omitempty.
func structTree(v reflect.Value) object {
	o := object{}
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = snakeCase(f.Name)
		}
		if strings.Contains(opts, "omitempty") && v.Field(i).IsZero() {
			continue
		}
		o = append(o, member{name, jsonTree(v.Field(i))})
	}
	return o
}

// reasonTree is a reason's class, type, text and remedy, then its fields.
func reasonTree(v reflect.Value) object {
	r := v.Interface().(Reason)
	o := object{
		{"class", r.Class().String()},
		{"type", reflect.Indirect(v).Type().Name()},
		{"text", r.Text()},
		{"remedy", r.Remedy()},
	}
	return append(o, structTree(reflect.Indirect(v))...)
}

// snakeCase writes a Go name as JSON names are written here: DrawsNeeded
// as draws_needed.
func snakeCase(name string) string {
	var b strings.Builder
	for i, c := range name {
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			c += 'a' - 'A'
		}
		b.WriteRune(c)
	}
	return b.String()
}
