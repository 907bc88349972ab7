package roce

import (
	"encoding/binary"
	"fmt"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// Wire constants (docs/protocol.md).
const (
	// UDPPort is the IANA RoCEv2 destination port.
	UDPPort = 4791
	// OpSendOnly is the BTH opcode of data packets: RC SEND Only.
	OpSendOnly = 0x04
	// OpAck is the BTH opcode of ACK/NAK packets: RC Acknowledge.
	OpAck = 0x11
	// DefaultPKey is the default partition key.
	DefaultPKey = 0xFFFF
	// BTHLen is the BTH length in bytes.
	BTHLen = 12
	// SprayLen is the spray extension header length in bytes, also sent in its length field.
	SprayLen = 16
	// SprayType is the first byte of a spray extension header.
	SprayType = 0xB5
	// SprayVersion is the spray extension header version this package sends and accepts.
	SprayVersion = 1
	// AETHLen is the AETH length in bytes.
	AETHLen = 4
	// SACKHeaderLen is the SACK extension length in bytes without its bitmap.
	SACKHeaderLen = 8
	// SACKMaxWords is the largest SACK bitmap, in 32-bit words (256 bits).
	SACKMaxWords = 8
	// ICRCLen is the invariant CRC length in bytes.
	ICRCLen = 4
	// SyndromeACK is the AETH syndrome of an ACK: type ACK, credit count 0x1F ("invalid", as Linux rxe sends).
	SyndromeACK = 0x1F
	// SyndromeNAKSeq is the AETH syndrome of a NAK "PSN sequence error".
	SyndromeNAKSeq = 0x60
	// SprayFirst is the spray flags bit of the first packet of a message.
	SprayFirst = 0x80
	// SprayLast is the spray flags bit of the last packet of a message.
	SprayLast = 0x40
	// SACKECN is the SACK flags bit echoing a CE mark.
	SACKECN = 0x80
	// Max24 is the largest value of a 24-bit field.
	Max24 = 1<<24 - 1
)

// Layer types of the package, registered with gopacket.
var (
	// LayerTypeBTH is the InfiniBand Base Transport Header.
	LayerTypeBTH = gopacket.RegisterLayerType(4791,
		gopacket.LayerTypeMetadata{Name: "BTH", Decoder: gopacket.DecodeFunc(decodeBTH)})
	// LayerTypeSpray is the spray extension header of data packets.
	LayerTypeSpray = gopacket.RegisterLayerType(4792,
		gopacket.LayerTypeMetadata{Name: "Spray", Decoder: gopacket.DecodeFunc(decodeSpray)})
	// LayerTypeAETH is the ACK Extended Transport Header.
	LayerTypeAETH = gopacket.RegisterLayerType(4793,
		gopacket.LayerTypeMetadata{Name: "AETH", Decoder: gopacket.DecodeFunc(decodeAETH)})
	// LayerTypeSACK is the SACK extension header of ACK/NAK packets.
	LayerTypeSACK = gopacket.RegisterLayerType(4794,
		gopacket.LayerTypeMetadata{Name: "SACK", Decoder: gopacket.DecodeFunc(decodeSACK)})
)

func init() {
	layers.RegisterUDPPortLayerType(layers.UDPPort(UDPPort), LayerTypeBTH)
}

// put24 writes the low 24 bits of v big-endian.
func put24(b []byte, v uint32) { b[0], b[1], b[2] = byte(v>>16), byte(v>>8), byte(v) }

// get24 reads 24 bits big-endian.
func get24(b []byte) uint32 { return uint32(b[0])<<16 | uint32(b[1])<<8 | uint32(b[2]) }

// BTH is the InfiniBand Base Transport Header (12 bytes). As the top of the RoCEv2 stack it also owns the pad
// bytes and the ICRC that end the UDP payload: LayerPayload excludes both.
type BTH struct {
	layers.BaseLayer
	// Opcode is the BTH opcode (OpSendOnly, OpAck).
	Opcode uint8
	// SE is the solicited event bit.
	SE bool
	// MigReq is the migration request bit (M).
	MigReq bool
	// PadCount is the number of pad bytes (0..3) before the ICRC.
	PadCount uint8
	// TVer is the transport header version; must be 0.
	TVer uint8
	// PKey is the partition key.
	PKey uint16
	// FECN is the forward explicit congestion notification bit.
	FECN bool
	// BECN is the backward explicit congestion notification bit.
	BECN bool
	// Resv6 holds the 6 reserved bits of byte 4 (sent 0, ignored on receive).
	Resv6 uint8
	// DestQP is the destination queue pair (24 bits).
	DestQP uint32
	// AckReq is the acknowledge request bit.
	AckReq bool
	// Resv7 holds the 7 reserved bits of byte 8 (sent 0, ignored on receive).
	Resv7 uint8
	// PSN is the packet sequence number (24 bits).
	PSN uint32
	// ICRC is the invariant CRC as a number (its wire bytes are little-endian).
	ICRC uint32
}

// LayerType implements gopacket.Layer.
func (b *BTH) LayerType() gopacket.LayerType { return LayerTypeBTH }

// CanDecode implements gopacket.DecodingLayer.
func (b *BTH) CanDecode() gopacket.LayerClass { return LayerTypeBTH }

// NextLayerType selects the spray header for RC SEND Only, the AETH for RC Acknowledge, a payload otherwise.
func (b *BTH) NextLayerType() gopacket.LayerType {
	switch b.Opcode {
	case OpSendOnly:
		return LayerTypeSpray
	case OpAck:
		return LayerTypeAETH
	}
	return gopacket.LayerTypePayload
}

// DecodeFromBytes decodes data, the whole UDP payload (BTH, extension headers, payload, pad, ICRC). It does not
// allocate.
func (b *BTH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if len(data) < BTHLen+ICRCLen {
		df.SetTruncated()
		if len(data) < BTHLen {
			return truncated("BTH", "header", len(data), BTHLen)
		}
		return truncated("ICRC", "", len(data)-BTHLen, ICRCLen)
	}
	b.Opcode = data[0]
	b.SE = data[1]&0x80 != 0
	b.MigReq = data[1]&0x40 != 0
	b.PadCount = data[1] >> 4 & 3
	b.TVer = data[1] & 0x0F
	b.PKey = binary.BigEndian.Uint16(data[2:])
	b.FECN = data[4]&0x80 != 0
	b.BECN = data[4]&0x40 != 0
	b.Resv6 = data[4] & 0x3F
	b.DestQP = get24(data[5:])
	b.AckReq = data[8]&0x80 != 0
	b.Resv7 = data[8] & 0x7F
	b.PSN = get24(data[9:])
	n := len(data) - ICRCLen
	b.ICRC = binary.LittleEndian.Uint32(data[n:])
	if n-BTHLen < int(b.PadCount) {
		df.SetTruncated()
		return truncated("BTH", "pad", n-BTHLen, int(b.PadCount))
	}
	b.Contents = data[:BTHLen]
	b.Payload = data[BTHLen : n-int(b.PadCount)]
	return nil
}

// SerializeTo prepends the BTH and appends the pad bytes and the ICRC field (b.ICRC; BuildData and BuildAck, or
// FixICRC, compute it once the IP header exists). With FixLengths the pad count is set to align the payload to 4
// bytes.
func (b *BTH) SerializeTo(buf gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	if opts.FixLengths {
		b.PadCount = uint8(-len(buf.Bytes()) & 3)
	}
	if err := b.check(); err != nil {
		return err
	}
	tail, err := buf.AppendBytes(int(b.PadCount) + ICRCLen)
	if err != nil {
		return err
	}
	clear(tail[:b.PadCount])
	binary.LittleEndian.PutUint32(tail[b.PadCount:], b.ICRC)
	h, err := buf.PrependBytes(BTHLen)
	if err != nil {
		return err
	}
	h[0] = b.Opcode
	h[1] = b.PadCount<<4 | b.TVer
	if b.SE {
		h[1] |= 0x80
	}
	if b.MigReq {
		h[1] |= 0x40
	}
	binary.BigEndian.PutUint16(h[2:], b.PKey)
	h[4] = b.Resv6
	if b.FECN {
		h[4] |= 0x80
	}
	if b.BECN {
		h[4] |= 0x40
	}
	put24(h[5:], b.DestQP)
	h[8] = b.Resv7
	if b.AckReq {
		h[8] |= 0x80
	}
	put24(h[9:], b.PSN)
	return nil
}

// check validates the field ranges before serialization.
func (b *BTH) check() error {
	switch {
	case b.PadCount > 3:
		return invalid("BTH", "pad count", uint64(b.PadCount), "0..3")
	case b.TVer > 15:
		return invalid("BTH", "tver", uint64(b.TVer), "0..15")
	case b.Resv6 > 0x3F:
		return invalid("BTH", "resv6", uint64(b.Resv6), "0..63")
	case b.DestQP > Max24:
		return invalid("BTH", "dest qp", uint64(b.DestQP), "0..0xFFFFFF")
	case b.Resv7 > 0x7F:
		return invalid("BTH", "resv7", uint64(b.Resv7), "0..127")
	case b.PSN > Max24:
		return invalid("BTH", "psn", uint64(b.PSN), "0..0xFFFFFF")
	}
	return nil
}

// decodeBTH is the gopacket decoder of LayerTypeBTH.
func decodeBTH(data []byte, p gopacket.PacketBuilder) error {
	b := &BTH{}
	if err := b.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(b)
	return p.NextDecoder(b.NextLayerType())
}

// Spray is the spray extension header (16 bytes) after the BTH of a data packet. Its type, version and length
// bytes are fixed (SprayType, SprayVersion, SprayLen): written by SerializeTo, checked by DecodeFromBytes.
type Spray struct {
	layers.BaseLayer
	// Path is the path id.
	Path uint8
	// Flags holds SprayFirst and SprayLast; the other bits are reserved, sent 0 and rejected on receive.
	Flags uint8
	// MsgID is the message id (the payload handle; 32 bits).
	MsgID uint32
	// Offset is the placement offset of the payload in the message, bytes.
	Offset uint32
	// PSeq is the path sequence (24 bits; a PSEQ_WIDTH-bit sequence is zero-extended).
	PSeq uint32
}

// Spray header byte offsets (docs/protocol.md).
const (
	sprayTypeOff    = 0
	sprayPathOff    = 1
	sprayFlagsOff   = 2
	sprayVersionOff = 3
	sprayMsgOff     = 4
	sprayOffsetOff  = 8
	sprayLengthOff  = 12
	sprayPSeqOff    = 13
)

// sprayFlagsAllowed describes the allowed spray flags.
const sprayFlagsAllowed = "bits 7 (first) and 6 (last) only"

// LayerType implements gopacket.Layer.
func (s *Spray) LayerType() gopacket.LayerType { return LayerTypeSpray }

// CanDecode implements gopacket.DecodingLayer.
func (s *Spray) CanDecode() gopacket.LayerClass { return LayerTypeSpray }

// NextLayerType returns the payload.
func (s *Spray) NextLayerType() gopacket.LayerType { return gopacket.LayerTypePayload }

// DecodeFromBytes decodes the header; it does not allocate. The fixed bytes are checked first, so a payload that
// is not a spray header is named as such.
func (s *Spray) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if len(data) < SprayLen {
		df.SetTruncated()
		return truncated("Spray", "header", len(data), SprayLen)
	}
	switch {
	case data[sprayTypeOff] != SprayType:
		return invalid("Spray", "type", uint64(data[sprayTypeOff]), "0xb5 (spray data header)")
	case data[sprayVersionOff] != SprayVersion:
		return invalid("Spray", "version", uint64(data[sprayVersionOff]), "1")
	case data[sprayLengthOff] != SprayLen:
		return invalid("Spray", "length", uint64(data[sprayLengthOff]), "16")
	case data[sprayFlagsOff]&^(SprayFirst|SprayLast) != 0:
		return invalid("Spray", "flags", uint64(data[sprayFlagsOff]), sprayFlagsAllowed)
	}
	s.Path = data[sprayPathOff]
	s.Flags = data[sprayFlagsOff]
	s.MsgID = binary.BigEndian.Uint32(data[sprayMsgOff:])
	s.Offset = binary.BigEndian.Uint32(data[sprayOffsetOff:])
	s.PSeq = get24(data[sprayPSeqOff:])
	s.Contents = data[:SprayLen]
	s.Payload = data[SprayLen:]
	return nil
}

// SerializeTo prepends the header.
func (s *Spray) SerializeTo(buf gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	if s.PSeq > Max24 {
		return invalid("Spray", "pseq", uint64(s.PSeq), "0..0xFFFFFF")
	}
	if s.Flags&^(SprayFirst|SprayLast) != 0 {
		return invalid("Spray", "flags", uint64(s.Flags), sprayFlagsAllowed)
	}
	h, err := buf.PrependBytes(SprayLen)
	if err != nil {
		return err
	}
	h[sprayTypeOff] = SprayType
	h[sprayPathOff] = s.Path
	h[sprayFlagsOff] = s.Flags
	h[sprayVersionOff] = SprayVersion
	binary.BigEndian.PutUint32(h[sprayMsgOff:], s.MsgID)
	binary.BigEndian.PutUint32(h[sprayOffsetOff:], s.Offset)
	h[sprayLengthOff] = SprayLen
	put24(h[sprayPSeqOff:], s.PSeq)
	return nil
}

// decodeSpray is the gopacket decoder of LayerTypeSpray.
func decodeSpray(data []byte, p gopacket.PacketBuilder) error {
	s := &Spray{}
	if err := s.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(s)
	return p.NextDecoder(s.NextLayerType())
}

// AETH is the ACK Extended Transport Header (4 bytes).
type AETH struct {
	layers.BaseLayer
	// Syndrome is SyndromeACK, SyndromeNAKSeq, or another IBTA syndrome.
	Syndrome uint8
	// MSN is the message sequence number (24 bits).
	MSN uint32
}

// LayerType implements gopacket.Layer.
func (a *AETH) LayerType() gopacket.LayerType { return LayerTypeAETH }

// CanDecode implements gopacket.DecodingLayer.
func (a *AETH) CanDecode() gopacket.LayerClass { return LayerTypeAETH }

// NextLayerType returns the SACK extension if bytes follow, else nothing (a plain IBTA ACK).
func (a *AETH) NextLayerType() gopacket.LayerType {
	if len(a.Payload) > 0 {
		return LayerTypeSACK
	}
	return gopacket.LayerTypeZero
}

// IsNAK reports whether the syndrome is a NAK (type bits 6:5 = 11).
func (a *AETH) IsNAK() bool { return a.Syndrome&0x60 == 0x60 }

// DecodeFromBytes decodes the header; it does not allocate.
func (a *AETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if len(data) < AETHLen {
		df.SetTruncated()
		return truncated("AETH", "header", len(data), AETHLen)
	}
	a.Syndrome = data[0]
	a.MSN = get24(data[1:])
	a.Contents = data[:AETHLen]
	a.Payload = data[AETHLen:]
	return nil
}

// SerializeTo prepends the header.
func (a *AETH) SerializeTo(buf gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	if a.MSN > Max24 {
		return invalid("AETH", "msn", uint64(a.MSN), "0..0xFFFFFF")
	}
	h, err := buf.PrependBytes(AETHLen)
	if err != nil {
		return err
	}
	h[0] = a.Syndrome
	put24(h[1:], a.MSN)
	return nil
}

// decodeAETH is the gopacket decoder of LayerTypeAETH.
func decodeAETH(data []byte, p gopacket.PacketBuilder) error {
	a := &AETH{}
	if err := a.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(a)
	return p.NextDecoder(a.NextLayerType())
}

// SACK is the SACK extension header after the AETH: one path's receive state.
type SACK struct {
	layers.BaseLayer
	// Path is the path id.
	Path uint8
	// PNext is one past the highest path sequence received on the path (24 bits).
	PNext uint32
	// Flags holds SACKECN; the other bits are reserved, sent 0 and rejected on receive.
	Flags uint8
	// Words is the bitmap length in 32-bit words, 0..SACKMaxWords.
	Words uint8
	// Bitmap: bit i (Bitmap[i/32] bit i%32) set = path sequence PNext-1-i received. Bits at or beyond 32*Words
	// are zero after decoding.
	Bitmap [SACKMaxWords]uint32
}

// LayerType implements gopacket.Layer.
func (s *SACK) LayerType() gopacket.LayerType { return LayerTypeSACK }

// CanDecode implements gopacket.DecodingLayer.
func (s *SACK) CanDecode() gopacket.LayerClass { return LayerTypeSACK }

// NextLayerType returns nothing: the SACK extension ends the packet.
func (s *SACK) NextLayerType() gopacket.LayerType { return gopacket.LayerTypeZero }

// Bit reports bitmap bit i (path sequence PNext-1-i received); false beyond the bitmap.
func (s *SACK) Bit(i int) bool {
	if i < 0 || i >= 32*int(s.Words) || i >= 32*SACKMaxWords {
		return false
	}
	return s.Bitmap[i/32]>>(i%32)&1 != 0
}

// SetBit sets bitmap bit i (0 <= i < 256); it does not change Words.
func (s *SACK) SetBit(i int) {
	if i >= 0 && i < 32*SACKMaxWords {
		s.Bitmap[i/32] |= 1 << (i % 32)
	}
}

// DecodeFromBytes decodes the header and its bitmap; it does not allocate. Bytes after the bitmap are an error.
func (s *SACK) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if len(data) < SACKHeaderLen {
		df.SetTruncated()
		return truncated("SACK", "header", len(data), SACKHeaderLen)
	}
	s.Path = data[0]
	s.PNext = get24(data[1:])
	s.Flags = data[4]
	if s.Flags&^SACKECN != 0 {
		return invalid("SACK", "flags", uint64(s.Flags), "bit 7 (ecn echo) only")
	}
	s.Words = data[5]
	if s.Words > SACKMaxWords {
		return invalid("SACK", "bitmap words", uint64(s.Words), "0..8")
	}
	if r := binary.BigEndian.Uint16(data[6:]); r != 0 {
		return invalid("SACK", "reserved", uint64(r), "0")
	}
	n := SACKHeaderLen + 4*int(s.Words)
	if len(data) < n {
		df.SetTruncated()
		return truncated("SACK", "bitmap", len(data)-SACKHeaderLen, 4*int(s.Words))
	}
	if len(data) > n {
		return invalid("SACK", "trailing bytes", uint64(len(data)-n), "0 (the bitmap ends the packet)")
	}
	s.Bitmap = [SACKMaxWords]uint32{}
	for w := 0; w < int(s.Words); w++ {
		s.Bitmap[w] = binary.BigEndian.Uint32(data[SACKHeaderLen+4*w:])
	}
	s.Contents = data[:n]
	s.Payload = data[n:]
	return nil
}

// usedWords returns the smallest word count covering every set bitmap bit.
func (s *SACK) usedWords() uint8 {
	for w := SACKMaxWords; w > 0; w-- {
		if s.Bitmap[w-1] != 0 {
			return uint8(w)
		}
	}
	return 0
}

// SerializeTo prepends the header and bitmap. With FixLengths Words is raised (never lowered, so a fixed
// sack_bits geometry is kept) to cover every set bit; without it a set bit beyond Words is an error.
func (s *SACK) SerializeTo(buf gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	if u := s.usedWords(); opts.FixLengths && u > s.Words {
		s.Words = u
	}
	switch {
	case s.PNext > Max24:
		return invalid("SACK", "pnext", uint64(s.PNext), "0..0xFFFFFF")
	case s.Flags&^SACKECN != 0:
		return invalid("SACK", "flags", uint64(s.Flags), "bit 7 (ecn echo) only")
	case s.Words > SACKMaxWords:
		return invalid("SACK", "bitmap words", uint64(s.Words), "0..8")
	case s.usedWords() > s.Words:
		return invalid("SACK", "bitmap", uint64(s.usedWords()), fmt.Sprintf("set bits within Words=%d words", s.Words))
	}
	h, err := buf.PrependBytes(SACKHeaderLen + 4*int(s.Words))
	if err != nil {
		return err
	}
	h[0] = s.Path
	put24(h[1:], s.PNext)
	h[4] = s.Flags
	h[5] = s.Words
	h[6], h[7] = 0, 0
	for w := 0; w < int(s.Words); w++ {
		binary.BigEndian.PutUint32(h[SACKHeaderLen+4*w:], s.Bitmap[w])
	}
	return nil
}

// decodeSACK is the gopacket decoder of LayerTypeSACK.
func decodeSACK(data []byte, p gopacket.PacketBuilder) error {
	s := &SACK{}
	if err := s.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(s)
	return nil
}
