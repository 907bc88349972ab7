package roce

import (
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

// ReadPcap reads every frame and its timestamp from a pcap file of link type Ethernet (pcapgo, no libpcap).
func ReadPcap(r io.Reader) (frames [][]byte, timestamps []time.Time, err error) {
	pr, err := pcapgo.NewReader(r)
	if err != nil {
		return nil, nil, err
	}
	if lt := pr.LinkType(); lt != layers.LinkTypeEthernet {
		return nil, nil, fmt.Errorf("roce: ReadPcap: link type %v, want Ethernet", lt)
	}
	for {
		data, ci, err := pr.ReadPacketData()
		if err == io.EOF {
			return frames, timestamps, nil
		}
		if err != nil {
			return frames, timestamps, err
		}
		frames = append(frames, data)
		timestamps = append(timestamps, ci.Timestamp)
	}
}
