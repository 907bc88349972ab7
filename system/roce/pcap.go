package roce

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// pcapSnapLen is the snapshot length written in the pcap header.
const pcapSnapLen = 65535

// WritePcap writes frames as a pcap file (link type Ethernet, microsecond timestamps) with pure Go (pcapgo, no
// libpcap). timestamps gives one time per frame; if nil, frame i is stamped i microseconds after the Unix epoch.
func WritePcap(w io.Writer, frames [][]byte, timestamps []time.Time) error {
	if timestamps != nil && len(timestamps) != len(frames) {
		return fmt.Errorf("roce: WritePcap: %d frames but %d timestamps", len(frames), len(timestamps))
	}
	pw := pcapgo.NewWriter(w)
	if err := pw.WriteFileHeader(pcapSnapLen, layers.LinkTypeEthernet); err != nil {
		return err
	}
	for i, f := range frames {
		ts := time.Unix(0, int64(i)*int64(time.Microsecond))
		if timestamps != nil {
			ts = timestamps[i]
		}
		ci := gopacket.CaptureInfo{Timestamp: ts, CaptureLength: len(f), Length: len(f)}
		if err := pw.WritePacket(ci, f); err != nil {
			return fmt.Errorf("roce: WritePcap: frame %d: %w", i, err)
		}
	}
	return nil
}

// ReadPcap reads every frame and its timestamp from a capture (pcap or pcapng, ReadCapture) whose frames are all
// whole Ethernet frames; a cut file, another link type or a frame shorter than on the wire is an error.
func ReadPcap(r io.Reader) (frames [][]byte, timestamps []time.Time, err error) {
	c, err := ReadCapture("capture", r)
	if err != nil {
		return nil, nil, err
	}
	for i := range c.Frames {
		if err := c.Frames[i].Check(); err != nil {
			return nil, nil, fmt.Errorf("capture: frame %d: %w", i+1, err)
		}
		frames = append(frames, c.Frames[i].Data)
		timestamps = append(timestamps, c.Frames[i].Time)
	}
	if c.Cut != nil {
		return frames, timestamps, c.Cut
	}
	return frames, timestamps, nil
}

// Capture is a capture file read whole by ReadCapture.
type Capture struct {
	// Name names the file in messages; Format is "pcap" or "pcapng", with " (gzip)" when compressed.
	Name, Format string
	// Frames are the records in file order: frame i+1 as Wireshark numbers it.
	Frames []CapturedFrame
	// Cut, when set, says the file ends inside a record; Frames holds every record before it.
	Cut *CutError
}

// CapturedFrame is one record of a capture.
type CapturedFrame struct {
	// Data is the bytes captured; Time the timestamp.
	Data []byte
	Time time.Time
	// Length is the frame's length on the wire: above len(Data) when the snap length cut it.
	Length int
	// LinkType is the link type of the interface it was captured on; Interface its pcapng index (0 in pcap).
	LinkType  layers.LinkType
	Interface int
}

// Check returns why f is not a whole Ethernet frame, or nil.
func (f *CapturedFrame) Check() error {
	if f.LinkType != layers.LinkTypeEthernet {
		return fmt.Errorf("link type %d (%v) of interface %d, allowed 1 (Ethernet)", uint8(f.LinkType), f.LinkType,
			f.Interface)
	}
	if len(f.Data) < f.Length {
		return fmt.Errorf("captured %d of its %d bytes (the capture's snap length cut it)", len(f.Data), f.Length)
	}
	return nil
}

// CutError reports a capture file that ends inside a record.
type CutError struct {
	// Name is the file; Frame the number the cut record would have had (after Frame-1 complete ones).
	Name  string
	Frame int
	// Offset is the file offset of the cut record (of the decompressed file); Have and Need its bytes present
	// and its length.
	Offset     int
	Have, Need int
	// Block describes a pcapng block that is not a packet ("" for a packet record).
	Block string
}

// Error implements error.
func (e *CutError) Error() string {
	what := fmt.Sprintf("frame %d is cut", e.Frame)
	if e.Block != "" {
		what = fmt.Sprintf("a %s block after frame %d is cut", e.Block, e.Frame-1)
	}
	return fmt.Sprintf("%s: %s: %d of its %d bytes present (file offset %d); the %d frames before it are "+
		"complete", e.Name, what, e.Have, e.Need, e.Offset, e.Frame-1)
}

// Capture file magic numbers, as the first 4 bytes read big-endian.
const (
	magicPcapMicroLE = 0xD4C3B2A1
	magicPcapMicroBE = 0xA1B2C3D4
	magicPcapNanoLE  = 0x4D3CB2A1
	magicPcapNanoBE  = 0xA1B23C4D
	magicPcapNg      = 0x0A0D0D0A
	pcapHeaderLen    = 24
	pcapRecordLen    = 16
)

// ReadCapture reads a whole pcap or pcapng file (optionally gzip-compressed), telling the format by its magic
// number (docs/protocol.md, "Captures"). name names the file in messages. A file refused as a whole is an
// error; a cut file returns the records before the cut with Capture.Cut set and no error; frames of another link
// type or cut by the snap length are returned for CapturedFrame.Check to reject one by one.
func ReadCapture(name string, r io.Reader) (*Capture, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	c := &Capture{Name: name}
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		if data, err = gunzip(data); err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", name, err)
		}
		c.Format = " (gzip)"
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("%s: empty file, allowed a pcap or pcapng capture", name)
	}
	if len(data) < 4 {
		return nil, fmt.Errorf("%s: %d bytes: not a capture (a pcap or pcapng file starts with a 4-byte magic "+
			"number)", name, len(data))
	}
	switch m := binary.BigEndian.Uint32(data); m {
	case magicPcapMicroLE, magicPcapMicroBE, magicPcapNanoLE, magicPcapNanoBE:
		c.Format = "pcap" + c.Format
		err = c.readPcap(data)
	case magicPcapNg:
		c.Format = "pcapng" + c.Format
		err = c.readPcapNg(data)
	default:
		err = fmt.Errorf("%s: not a capture: magic % x, allowed a1 b2 c3 d4 or a1 b2 3c 4d (pcap, either byte "+
			"order) or 0a 0d 0d 0a (pcapng)", name, data[:4])
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// gunzip decompresses a gzip file held in memory.
func gunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// readPcap reads a classic pcap file: the records before any cut, with pcapgo.
func (c *Capture) readPcap(data []byte) error {
	if len(data) < pcapHeaderLen {
		return fmt.Errorf("%s: pcap file header cut: %d of its %d bytes present", c.Name, len(data), pcapHeaderLen)
	}
	order := binary.ByteOrder(binary.LittleEndian)
	if m := binary.BigEndian.Uint32(data); m == magicPcapMicroBE || m == magicPcapNanoBE {
		order = binary.BigEndian
	}
	end, largest := pcapgoScan(data, order, c)
	pr, err := pcapgo.NewReader(bytes.NewReader(data[:end]))
	if err != nil {
		return fmt.Errorf("%s: pcap: %w", c.Name, err)
	}
	if lt := pr.LinkType(); lt != layers.LinkTypeEthernet {
		return fmt.Errorf("%s: pcap link type %d (%v), allowed 1 (Ethernet)", c.Name, uint8(lt), lt)
	}
	if uint32(largest) > pr.Snaplen() {
		pr.SetSnaplen(uint32(largest)) // a writer that kept frames longer than its own snap length
	}
	for {
		d, ci, err := pr.ReadPacketData()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: frame %d: %w", c.Name, len(c.Frames)+1, err)
		}
		c.Frames = append(c.Frames, CapturedFrame{Data: d, Time: ci.Timestamp, Length: ci.Length,
			LinkType: layers.LinkTypeEthernet})
	}
}

// pcapgoScan walks the records of a pcap file and returns where the complete ones end and the largest record,
// setting c.Cut when the file ends inside one.
func pcapgoScan(data []byte, order binary.ByteOrder, c *Capture) (end, largest int) {
	off, n := pcapHeaderLen, 0
	for off < len(data) {
		n++
		need := pcapRecordLen
		if len(data)-off >= pcapRecordLen {
			incl := int(order.Uint32(data[off+8:]))
			need += incl
			largest = max(largest, incl)
		}
		if len(data)-off < need {
			c.Cut = &CutError{Name: c.Name, Frame: n, Offset: off, Have: len(data) - off, Need: need}
			return off, largest
		}
		off += need
	}
	return off, largest
}

// pcapng block types this reader names.
const (
	ngBlockSection   = 0x0A0D0D0A
	ngBlockInterface = 0x00000001
	ngBlockPacket    = 0x00000002
	ngBlockSimple    = 0x00000003
	ngBlockStats     = 0x00000005
	ngBlockEnhanced  = 0x00000006
)

// readPcapNg reads a pcapng file: the records before any cut, with pcapgo.NgReader (every interface, each
// frame's link type kept).
func (c *Capture) readPcapNg(data []byte) error {
	end, err := c.pcapngScan(data)
	if err != nil {
		return err
	}
	if end == 0 && c.Cut != nil {
		return fmt.Errorf("%s: pcapng section header cut: %d of its %d bytes present", c.Name, c.Cut.Have,
			c.Cut.Need)
	}
	nr, err := pcapgo.NewNgReader(bytes.NewReader(data[:end]),
		pcapgo.NgReaderOptions{WantMixedLinkType: true, SkipUnknownVersion: true})
	if err != nil {
		return fmt.Errorf("%s: pcapng: %w", c.Name, err)
	}
	for {
		d, ci, err := nr.ReadPacketData()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: pcapng: frame %d: %w", c.Name, len(c.Frames)+1, err)
		}
		lt := layers.LinkTypeEthernet
		if len(ci.AncillaryData) > 0 {
			lt, _ = ci.AncillaryData[0].(layers.LinkType)
		}
		c.Frames = append(c.Frames, CapturedFrame{Data: d, Time: ci.Timestamp, Length: ci.Length, LinkType: lt,
			Interface: ci.InterfaceIndex})
	}
}

// pcapngScan walks the blocks of a pcapng file and returns where the complete ones end, setting c.Cut when the
// file ends inside one; a block length that cannot be is an error.
func (c *Capture) pcapngScan(data []byte) (int, error) {
	order := binary.ByteOrder(binary.LittleEndian)
	off, frames := 0, 0
	for off < len(data) {
		left := len(data) - off
		typ := binary.BigEndian.Uint32(data[off:])
		if typ == ngBlockSection && left >= 12 {
			order = binary.LittleEndian
			if binary.BigEndian.Uint32(data[off+8:]) == 0x1A2B3C4D {
				order = binary.BigEndian
			}
		}
		if typ != ngBlockSection {
			typ = order.Uint32(data[off:])
		}
		need := 12
		if left >= 8 {
			need = int(order.Uint32(data[off+4:]))
			if need < 12 || need%4 != 0 {
				return 0, fmt.Errorf("%s: pcapng block at file offset %d: length %d, allowed a multiple of 4, >= 12 "+
					"(the file is damaged)", c.Name, off, need)
			}
		}
		packet := typ == ngBlockEnhanced || typ == ngBlockSimple || typ == ngBlockPacket
		if left < need {
			c.Cut = &CutError{Name: c.Name, Frame: frames + 1, Offset: off, Have: left, Need: need}
			if !packet {
				c.Cut.Block = ngBlockName(typ)
			}
			return off, nil
		}
		if packet {
			frames++
		}
		off += need
	}
	return off, nil
}

// ngBlockName names a pcapng block type.
func ngBlockName(typ uint32) string {
	switch typ {
	case ngBlockSection:
		return "section header"
	case ngBlockInterface:
		return "interface description"
	case ngBlockStats:
		return "interface statistics"
	}
	return fmt.Sprintf("type %#x", typ)
}
