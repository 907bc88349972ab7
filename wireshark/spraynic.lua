-- SPDX-License-Identifier: MIT
--
-- spraynic.lua: Wireshark dissector for the spraynic RoCEv2 extensions (docs/protocol.md).
--
-- Wireshark decodes the IBTA headers (BTH, AETH, ICRC) itself; this script adds the two spraynic extensions:
--   * the spray header, the first 16 bytes of an RC SEND Only payload, as a heuristic of Wireshark's
--     "infiniband.payload" list: it claims the payload only when type (0xB5), version (1) and length (16)
--     match, then hands the user payload to "data";
--   * the SACK extension after the AETH of an RC Acknowledge, which Wireshark's InfiniBand dissector never
--     passes on, as a postdissector that reads the UDP payload of such a frame.
-- Non-zero reserved bits and inconsistent lengths are expert warnings; a frame spraynic sends has none.
--
-- Install: copy this file into the personal Lua plugins folder (Help > About Wireshark > Folders, "Personal Lua
-- Plugins", e.g. ~/.local/lib/wireshark/plugins/) and restart Wireshark; or, for one run,
--   tshark -X lua_script:wireshark/spraynic.lua -r capture.pcap
-- Written for Wireshark 4.0 (Lua 5.2); it uses no bit operators, so Lua 5.1..5.4 builds load it.

local spraynic = Proto("spraynic", "spraynic RoCEv2 extensions")

-- Wire constants (docs/protocol.md).
local SPRAY_TYPE = 0xB5
local SPRAY_VERSION = 1
local SPRAY_LEN = 16
local OP_SEND_ONLY = 0x04
local OP_ACK = 0x11
local BTH_LEN = 12
local AETH_LEN = 4
local SACK_HEADER_LEN = 8
local SACK_MAX_WORDS = 8
local ICRC_LEN = 4

local f = spraynic.fields
-- Spray header (data packets).
f.type = ProtoField.uint8("spraynic.type", "Type", base.HEX)
f.path = ProtoField.uint8("spraynic.path", "Path", base.DEC)
f.flags = ProtoField.uint8("spraynic.flags", "Flags", base.HEX)
f.first = ProtoField.bool("spraynic.first", "First (F)", 8, nil, 0x80)
f.last = ProtoField.bool("spraynic.last", "Last (L)", 8, nil, 0x40)
f.flags_reserved = ProtoField.uint8("spraynic.flags.reserved", "Reserved", base.HEX, nil, 0x3F)
f.version = ProtoField.uint8("spraynic.version", "Version", base.DEC)
f.msg_id = ProtoField.uint32("spraynic.msg_id", "Message id", base.DEC)
f.offset = ProtoField.uint32("spraynic.offset", "Offset", base.DEC)
f.length = ProtoField.uint8("spraynic.length", "Header length", base.DEC)
f.pseq = ProtoField.uint24("spraynic.pseq", "Path sequence", base.DEC)
f.pad = ProtoField.bytes("spraynic.pad", "Pad")
-- SACK extension (ACK and NAK packets).
f.sack = ProtoField.none("spraynic.sack", "SACK extension")
f.sack_path = ProtoField.uint8("spraynic.sack.path", "Path", base.DEC)
f.sack_pnext = ProtoField.uint24("spraynic.sack.pnext", "Path next", base.DEC)
f.sack_flags = ProtoField.uint8("spraynic.sack.flags", "Flags", base.HEX)
f.sack_ecn = ProtoField.bool("spraynic.sack.ecn", "ECN echo (E)", 8, nil, 0x80)
f.sack_flags_reserved = ProtoField.uint8("spraynic.sack.flags.reserved", "Reserved", base.HEX, nil, 0x7F)
f.sack_words = ProtoField.uint8("spraynic.sack.words", "Bitmap words", base.DEC)
f.sack_reserved = ProtoField.uint16("spraynic.sack.reserved", "Reserved", base.HEX)
f.sack_bitmap = ProtoField.uint32("spraynic.sack.bitmap", "Bitmap word", base.HEX)
f.icrc = ProtoField.uint32("spraynic.icrc", "Invariant CRC (wire bytes)", base.HEX)

local e_reserved = ProtoExpert.new("spraynic.reserved.expert", "Reserved bits are not zero",
    expert.group.MALFORMED, expert.severity.WARN)
local e_length = ProtoExpert.new("spraynic.length.expert", "SACK extension length does not match its words",
    expert.group.MALFORMED, expert.severity.WARN)
spraynic.experts = { e_reserved, e_length }

-- Fields Wireshark's own dissectors fill, read while our code runs.
local bth_opcode = Field.new("infiniband.bth.opcode")
local bth_padcnt = Field.new("infiniband.bth.padcnt")
local udp_payload = Field.new("udp.payload")

local data = Dissector.get("data")

-- first_value returns the value of the first occurrence of a field in this packet, or nil.
local function first_value(field)
    local fi = field()
    if fi == nil then
        return nil
    end
    return fi.value
end

-- reserved_warning adds the expert item to item when the reserved bits' value is not zero.
local function reserved_warning(item, value)
    if value ~= 0 then
        item:add_proto_expert_info(e_reserved)
    end
end

-- dissect_spray decodes the spray header at the start of tvb (a SEND payload) and passes the rest on as data.
local function dissect_spray(tvb, pinfo, tree)
    local t = tree:add(spraynic, tvb(0, SPRAY_LEN), "spraynic spray header")
    t:add(f.type, tvb(0, 1))
    t:add(f.path, tvb(1, 1))
    local flags = t:add(f.flags, tvb(2, 1))
    flags:add(f.first, tvb(2, 1))
    flags:add(f.last, tvb(2, 1))
    reserved_warning(flags:add(f.flags_reserved, tvb(2, 1)), tvb(2, 1):bitfield(2, 6))
    t:add(f.version, tvb(3, 1))
    t:add(f.msg_id, tvb(4, 4))
    t:add(f.offset, tvb(8, 4))
    t:add(f.length, tvb(12, 1))
    t:add(f.pseq, tvb(13, 3))
    local path, pseq = tvb(1, 1):uint(), tvb(13, 3):uint()
    local marks = ""
    if tvb(2, 1):bitfield(0, 1) == 1 then
        marks = marks .. " F"
    end
    if tvb(2, 1):bitfield(1, 1) == 1 then
        marks = marks .. " L"
    end
    t:append_text(string.format(", path %d, pseq %d%s", path, pseq, marks))
    pinfo.cols.info:append(string.format("path=%d pseq=%d%s ", path, pseq, marks))

    local rest = tvb:len() - SPRAY_LEN
    local pad = first_value(bth_padcnt) or 0
    if pad > rest then
        pad = 0
    end
    if rest - pad > 0 then
        data:call(tvb(SPRAY_LEN, rest - pad):tvb(), pinfo, tree)
    end
    if pad > 0 then
        t:add(f.pad, tvb(tvb:len() - pad, pad))
    end
end

-- heuristic claims a SEND Only payload that starts with a spray header.
local function heuristic(tvb, pinfo, tree)
    if tvb:len() < SPRAY_LEN or first_value(bth_opcode) ~= OP_SEND_ONLY then
        return false
    end
    if tvb(0, 1):uint() ~= SPRAY_TYPE or tvb(3, 1):uint() ~= SPRAY_VERSION or tvb(12, 1):uint() ~= SPRAY_LEN then
        return false
    end
    dissect_spray(tvb, pinfo, tree)
    return true
end

spraynic:register_heuristic("infiniband.payload", heuristic)

-- dissect_sack decodes the SACK extension and the ICRC after the AETH; udp is the UDP payload (BTH on).
local function dissect_sack(udp, pinfo, tree)
    local off = BTH_LEN + AETH_LEN
    local left = udp:len() - off
    if left < SACK_HEADER_LEN + ICRC_LEN then
        return
    end
    local words = udp(off + 5, 1):uint()
    local n = SACK_HEADER_LEN + 4 * math.min(words, SACK_MAX_WORDS)
    if n + ICRC_LEN > left then
        n = left - ICRC_LEN
    end
    local t = tree:add(f.sack, udp(off, n))
    t:set_text("spraynic SACK extension")
    t:add(f.sack_path, udp(off, 1))
    t:add(f.sack_pnext, udp(off + 1, 3))
    local flags = t:add(f.sack_flags, udp(off + 4, 1))
    flags:add(f.sack_ecn, udp(off + 4, 1))
    reserved_warning(flags:add(f.sack_flags_reserved, udp(off + 4, 1)), udp(off + 4, 1):bitfield(1, 7))
    t:add(f.sack_words, udp(off + 5, 1))
    reserved_warning(t:add(f.sack_reserved, udp(off + 6, 2)), udp(off + 6, 2):uint())
    for w = 0, (n - SACK_HEADER_LEN) / 4 - 1 do
        t:add(f.sack_bitmap, udp(off + SACK_HEADER_LEN + 4 * w, 4)):prepend_text(string.format("[%d] ", w))
    end
    if words > SACK_MAX_WORDS or SACK_HEADER_LEN + 4 * words + ICRC_LEN ~= left then
        t:add_proto_expert_info(e_length, string.format(
            "SACK extension: %d words need %d bytes before the ICRC, the packet has %d",
            words, SACK_HEADER_LEN + 4 * words, left - ICRC_LEN))
    end
    local ecn = ""
    if udp(off + 4, 1):bitfield(0, 1) == 1 then
        ecn = " E"
    end
    t:append_text(string.format(", path %d, pnext %d%s", udp(off, 1):uint(), udp(off + 1, 3):uint(), ecn))
    pinfo.cols.info:append(string.format("path=%d pnext=%d%s ", udp(off, 1):uint(), udp(off + 1, 3):uint(), ecn))
    tree:add(f.icrc, udp(udp:len() - ICRC_LEN, ICRC_LEN))
end

-- The postdissector runs after every frame's dissection; it acts on RC Acknowledge frames only.
function spraynic.dissector(tvb, pinfo, tree)
    if first_value(bth_opcode) ~= OP_ACK then
        return
    end
    local fi = udp_payload()
    if fi == nil then
        return
    end
    local udp = fi.range:tvb()
    if udp:len() <= BTH_LEN + AETH_LEN + ICRC_LEN then
        return -- a plain IBTA ACK: nothing after the AETH
    end
    local t = tree:add(spraynic, fi.range(BTH_LEN + AETH_LEN), "spraynic")
    dissect_sack(udp, pinfo, t)
end

register_postdissector(spraynic)
