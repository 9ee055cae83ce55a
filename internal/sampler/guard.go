package sampler

import (
	"errors"
	"fmt"
	"math"
	"reflect"
)

// ErrMutatedInput reports a mechanism that changed the dataset it was given.
var ErrMutatedInput = errors.New("the mechanism changed the dataset it was given; a mechanism must leave its input unchanged (copy it before sorting or clipping in place)")

// guard hands a mechanism its own deep copy of a dataset (through slices,
// arrays, maps, pointers, interfaces and exported struct fields; what
// unexported fields refer to is shared), so that the caller's dataset is
// not changed, and tells afterwards whether the mechanism changed the copy (then the draws were not all made on the
// dataset claimed, and no verdict may rest on them).
type guard[D any] struct {
	original D
	copy     D
}

func newGuard[D any](d D) guard[D] {
	return guard[D]{original: d, copy: deepCopy(d)}
}

// check returns an error naming the dataset if its copy was changed.
func (g guard[D]) check(name string) error {
	if sameValue(reflect.ValueOf(&g.original).Elem(), reflect.ValueOf(&g.copy).Elem()) {
		return nil
	}
	return fmt.Errorf("%w: %s was %v before the draws and %v after", ErrMutatedInput, name, g.original, g.copy)
}

// deepCopy copies slices, arrays, maps, pointers, interfaces and the
// exported fields of structs recursively; other values (unexported struct
// fields among them) are copied as values. A pointer, map or slice met
// twice (shared, or a cycle: a graph of nodes) is copied once, and the
// copies share as the originals do.
func deepCopy[D any](d D) D {
	var out D
	dst := reflect.ValueOf(&out).Elem()
	c := copier{seen: map[refKey]reflect.Value{}}
	dst.Set(c.copy(reflect.ValueOf(&d).Elem()))
	return out
}

// refKey identifies what a pointer, map or slice refers to: its type,
// address and (for a slice) length.
type refKey struct {
	t    reflect.Type
	addr uintptr
	len  int
}

// copier is deepCopy's state: the copy of every reference copied so far.
type copier struct{ seen map[refKey]reflect.Value }

func (cp copier) copy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		key := refKey{v.Type(), v.Pointer(), v.Len()}
		if c, ok := cp.seen[key]; ok {
			return c
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		cp.seen[key] = c
		for i := 0; i < v.Len(); i++ {
			c.Index(i).Set(cp.copy(v.Index(i)))
		}
		return c
	case reflect.Array:
		c := reflect.New(v.Type()).Elem()
		for i := 0; i < v.Len(); i++ {
			c.Index(i).Set(cp.copy(v.Index(i)))
		}
		return c
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		key := refKey{v.Type(), v.Pointer(), 0}
		if c, ok := cp.seen[key]; ok {
			return c
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		cp.seen[key] = c
		it := v.MapRange()
		for it.Next() {
			c.SetMapIndex(it.Key(), cp.copy(it.Value()))
		}
		return c
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		key := refKey{v.Type(), v.Pointer(), 0}
		if c, ok := cp.seen[key]; ok {
			return c
		}
		c := reflect.New(v.Type().Elem())
		cp.seen[key] = c
		c.Elem().Set(cp.copy(v.Elem()))
		return c
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(cp.copy(v.Elem()))
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v) // every field as a value, unexported ones included
		for i := 0; i < v.NumField(); i++ {
			if c.Field(i).CanSet() {
				c.Field(i).Set(cp.copy(v.Field(i)))
			}
		}
		return c
	}
	return v
}

// sameValue compares two values of one type deeply, floats by their bits
// (so that a NaN record equals itself). References already under
// comparison (a cycle) compare equal there, as in reflect.DeepEqual.
func sameValue(a, b reflect.Value) bool {
	return comparer{seen: map[[2]refKey]bool{}}.same(a, b)
}

// comparer is sameValue's state: the pairs of references being compared.
type comparer struct{ seen map[[2]refKey]bool }

// visit reports whether the references a and b (pointers, maps or
// slices) were met together before, and marks them.
func (cm comparer) visit(a, b reflect.Value) bool {
	k := [2]refKey{{a.Type(), a.Pointer(), 0}, {b.Type(), b.Pointer(), 0}}
	if a.Kind() == reflect.Slice {
		k[0].len, k[1].len = a.Len(), b.Len()
	}
	if cm.seen[k] {
		return true
	}
	cm.seen[k] = true
	return false
}

func (cm comparer) same(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Complex64, reflect.Complex128:
		x, y := a.Complex(), b.Complex()
		return math.Float64bits(real(x)) == math.Float64bits(real(y)) && math.Float64bits(imag(x)) == math.Float64bits(imag(y))
	case reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.Kind() == reflect.Slice && !a.IsNil() && cm.visit(a, b) {
			return true
		}
		for i := 0; i < a.Len(); i++ {
			if !cm.same(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if !a.IsNil() && cm.visit(a, b) {
			return true
		}
		it := a.MapRange()
		for it.Next() {
			w := b.MapIndex(it.Key())
			if !w.IsValid() || !cm.same(it.Value(), w) {
				return false
			}
		}
		return true
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Kind() == reflect.Pointer && cm.visit(a, b) {
			return true
		}
		return cm.same(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !cm.same(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.String:
		return a.String() == b.String()
	}
	// Channels, functions, unsafe pointers: by identity.
	return a.Kind() == b.Kind() && (a.Kind() == reflect.Invalid || a.Pointer() == b.Pointer())
}

// guarded calls draw with the mechanism's own copies of x and y and
// returns its result, or the error of a mechanism that changed either copy
// (which outranks any error of the draws themselves, as their cause).
func guarded[D, R any](x, y D, draw func(x, y D) (R, error)) (R, error) {
	gx, gy := newGuard(x), newGuard(y)
	r, err := draw(gx.copy, gy.copy)
	if e := gx.check("X"); e != nil {
		return r, &DrawError{"X", e}
	}
	if e := gy.check("Y"); e != nil {
		return r, &DrawError{"Y", e}
	}
	return r, err
}
