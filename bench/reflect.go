package bench

import "reflect"

// typeOf is the reflect.Type of T.
func typeOf[T any]() reflect.Type { return reflect.TypeOf((*T)(nil)).Elem() }
