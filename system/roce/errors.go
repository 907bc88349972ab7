package roce

import (
	"errors"
	"fmt"
)

// Error kinds, matched with errors.Is; a *FieldError or *ICRCError carries the details (docs/protocol.md,
// "Receiver checks").
var (
	// ErrNotRoCE: the frame is not RoCEv2 over IPv4 (EtherType, IP protocol or UDP port).
	ErrNotRoCE = errors.New("not RoCEv2")
	// ErrTruncated: the frame ends inside a field.
	ErrTruncated = errors.New("truncated")
	// ErrInvalid: a field holds a value the format does not allow.
	ErrInvalid = errors.New("invalid field")
	// ErrUnknownOpcode: the BTH opcode is neither RC SEND Only nor RC Acknowledge.
	ErrUnknownOpcode = errors.New("unknown opcode")
	// ErrBadICRC: the invariant CRC does not match.
	ErrBadICRC = errors.New("bad ICRC")
	// ErrLimit: a field is valid but outside the receiver's configuration (Limits).
	ErrLimit = errors.New("outside the configuration")
)

// FieldError reports one rejected field: what was found and what is allowed.
type FieldError struct {
	// Layer names the header ("Ethernet", "IPv4", "UDP", "BTH", "Spray", "AETH", "SACK", "ICRC").
	Layer string
	// Field names the field; empty when the layer says it all.
	Field string
	// Value is the value found; for truncation, the bytes present.
	Value uint64
	// Found, when set, describes the value instead of "value V (0xV)", e.g. "value 0x86dd (IPv6)".
	Found string
	// Allowed describes the allowed values; for truncation, the bytes needed or claimed ("124 claimed").
	Allowed string
	// Err is the kind: ErrNotRoCE, ErrTruncated, ErrInvalid, ErrUnknownOpcode or ErrLimit.
	Err error
}

// Error implements error: "roce: LAYER FIELD: KIND: FOUND, allowed ALLOWED", or for truncation "roce: LAYER
// FIELD: truncated: N bytes present, ALLOWED".
func (e *FieldError) Error() string {
	name := e.Layer
	if e.Field != "" {
		name += " " + e.Field
	}
	if e.Err == ErrTruncated {
		return fmt.Sprintf("roce: %s: truncated: %d bytes present, %s", name, e.Value, e.Allowed)
	}
	found := e.Found
	if found == "" {
		found = fmt.Sprintf("value %d (%#x)", e.Value, e.Value)
	}
	return fmt.Sprintf("roce: %s: %v: %s, allowed %s", name, e.Err, found, e.Allowed)
}

// Unwrap returns the kind.
func (e *FieldError) Unwrap() error { return e.Err }

// ICRCError reports an invariant CRC mismatch; errors.Is(err, ErrBadICRC) holds.
type ICRCError struct {
	// Expected is the ICRC computed over the packet.
	Expected uint32
	// Actual is the ICRC found in the packet (its 4 bytes read little-endian).
	Actual uint32
}

// Error implements error.
func (e *ICRCError) Error() string {
	return fmt.Sprintf("roce: bad ICRC: expected %#08x, found %#08x", e.Expected, e.Actual)
}

// Is makes errors.Is(err, ErrBadICRC) true.
func (e *ICRCError) Is(target error) bool { return target == ErrBadICRC }

// truncated returns the truncation error of field in layer: have bytes present, need bytes needed.
func truncated(layer, field string, have, need int) *FieldError {
	return &FieldError{Layer: layer, Field: field, Value: uint64(have), Allowed: fmt.Sprintf("%d needed", need),
		Err: ErrTruncated}
}

// claimed returns the truncation error of a length field that claims more bytes than are present.
func claimed(layer, field string, have, claim int) *FieldError {
	return &FieldError{Layer: layer, Field: field, Value: uint64(have), Allowed: fmt.Sprintf("%d claimed", claim),
		Err: ErrTruncated}
}

// invalid returns the invalid-value error of field in layer.
func invalid(layer, field string, v uint64, allowed string) *FieldError {
	return &FieldError{Layer: layer, Field: field, Value: v, Allowed: allowed, Err: ErrInvalid}
}

// notRoCE returns the error of a frame that is not RoCEv2 over IPv4, with its value described by found.
func notRoCE(layer, field string, v uint64, found, allowed string) *FieldError {
	return &FieldError{Layer: layer, Field: field, Value: v, Found: found, Allowed: allowed, Err: ErrNotRoCE}
}

// limit returns the error of a field outside the receiver's configuration.
func limit(layer, field string, v uint64, found, allowed string) *FieldError {
	return &FieldError{Layer: layer, Field: field, Value: v, Found: found, Allowed: allowed, Err: ErrLimit}
}

// ethertypeNames and protocolNames name the values a capture most often holds besides ours.
var (
	ethertypeNames = map[uint16]string{0x0806: "ARP", 0x8100: "802.1Q VLAN tag", 0x86DD: "IPv6",
		0x88A8: "802.1ad VLAN tag", 0x8915: "RoCE v1"}
	protocolNames = map[uint8]string{1: "ICMP", 2: "IGMP", 6: "TCP", 47: "GRE", 50: "ESP", 132: "SCTP"}
)

// named renders "value V" (hex digits wide when hex) with the name of V if names has one.
func named[K comparable](v K, format string, names map[K]string) string {
	s := "value " + fmt.Sprintf(format, v)
	if n, ok := names[v]; ok {
		s += " (" + n + ")"
	}
	return s
}
