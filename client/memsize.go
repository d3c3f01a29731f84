package client

import "reflect"

// Per-entry costs beyond what reflection sees: a map entry's bucket share, and the memory's
// own bookkeeping of an entry (its list elements, map slot and key).
const (
	mapEntryOverhead = 16
	entryOverhead    = 160
)

// approxSize estimates the bytes v holds in memory: the value itself and everything it
// points to, strings and slices by their length and capacity. Data two values share (a
// string of a page that a conversation entry also holds) counts in each: the memory's cap
// errs on the safe side.
func approxSize(v any) int {
	if v == nil {
		return 0
	}
	rv := reflect.ValueOf(v)
	return int(rv.Type().Size()) + contentSize(rv)
}

// contentSize is what v points to, not counting v's own inline size (its container counts
// that).
func contentSize(v reflect.Value) int {
	switch v.Kind() {
	case reflect.String:
		return v.Len()
	case reflect.Pointer:
		if v.IsNil() {
			return 0
		}
		return int(v.Type().Elem().Size()) + contentSize(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		e := v.Elem()
		return int(e.Type().Size()) + contentSize(e)
	case reflect.Slice:
		if v.IsNil() {
			return 0
		}
		n := v.Cap() * int(v.Type().Elem().Size())
		if hasPointers(v.Type().Elem()) {
			for i := range v.Len() {
				n += contentSize(v.Index(i))
			}
		}
		return n
	case reflect.Array:
		n := 0
		if hasPointers(v.Type().Elem()) {
			for i := range v.Len() {
				n += contentSize(v.Index(i))
			}
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return 0
		}
		t := v.Type()
		n := v.Len() * (int(t.Key().Size()) + int(t.Elem().Size()) + mapEntryOverhead)
		if hasPointers(t.Key()) || hasPointers(t.Elem()) {
			it := v.MapRange()
			for it.Next() {
				n += contentSize(it.Key()) + contentSize(it.Value())
			}
		}
		return n
	case reflect.Struct:
		n := 0
		for i := range v.NumField() {
			n += contentSize(v.Field(i))
		}
		return n
	}
	return 0
}

// hasPointers reports whether values of t may refer to memory outside themselves.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
