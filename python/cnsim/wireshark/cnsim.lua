-- Wireshark dissector for the frames cnsim writes that Wireshark does not decode itself:
-- the IEEE 802.1Qau CN-TAG (EtherType 0x22E9) and CNM (0x22E7), and cnsim's shim on IEEE 802
-- Local Experimental EtherType 1 (0x88B5): data header, E-QCN tag, BCN rate-regulator tag and BCN
-- message; and it names RoCEv2 CNPs, which Wireshark decodes but calls an unknown opcode. Layouts:
-- PROTOCOLS.md §10 and crates/cnsim-engine/src/tap/wire.rs.
--
-- Use: wireshark -X lua_script:cnsim.lua capture.pcapng (or copy it into Wireshark's personal
-- Lua plugins folder); `cnsim wireshark-plugin` prints this file's path.

local ethertype = DissectorTable.get("ethertype")

local function next_type(tvb, pinfo, tree, etype)
    if etype ~= 0 and tvb:len() > 0 then
        if not ethertype:try(etype, tvb, pinfo, tree) then
            Dissector.get("data"):call(tvb, pinfo, tree)
        end
    end
end

-- CN-TAG: Flow ID (2 B, the RPID), then the MSDU's EtherType.
local cntag = Proto("cnsim_cntag", "IEEE 802.1Qau CN-TAG")
local f_flow = ProtoField.uint16("cnsim_cntag.flow_id", "Flow ID (RPID)", base.DEC)
local f_ctype = ProtoField.uint16("cnsim_cntag.etype", "EtherType", base.HEX)
cntag.fields = { f_flow, f_ctype }

function cntag.dissector(tvb, pinfo, tree)
    local t = tree:add(cntag, tvb(0, 4))
    t:add(f_flow, tvb(0, 2))
    t:add(f_ctype, tvb(2, 2))
    next_type(tvb(4):tvb(), pinfo, tree, tvb(2, 2):uint())
end
ethertype:add(0x22E9, cntag)

-- CNM PDU.
local cnm = Proto("cnsim_cnm", "IEEE 802.1Qau Congestion Notification Message")
local c = {
    version = ProtoField.uint16("cnsim_cnm.version", "Version", base.DEC, nil, 0xF000),
    reserved = ProtoField.uint16("cnsim_cnm.reserved", "ReservedV", base.HEX, nil, 0x0FC0),
    qntzfb = ProtoField.uint16("cnsim_cnm.qntzfb", "QntzFb", base.DEC, nil, 0x003F),
    cpid = ProtoField.uint64("cnsim_cnm.cpid", "CPID", base.HEX),
    qoffset = ProtoField.int16("cnsim_cnm.qoffset", "cnmQOffset (64 B units)", base.DEC),
    qdelta = ProtoField.int16("cnsim_cnm.qdelta", "cnmQDelta (64 B units)", base.DEC),
    prio = ProtoField.uint16("cnsim_cnm.encap_priority", "Encapsulated priority", base.DEC),
    da = ProtoField.ether("cnsim_cnm.encap_da", "Encapsulated destination MAC"),
    len = ProtoField.uint16("cnsim_cnm.encap_len", "Encapsulated MSDU length", base.DEC),
    msdu = ProtoField.bytes("cnsim_cnm.encap_msdu", "Encapsulated MSDU"),
}
cnm.fields = { c.version, c.reserved, c.qntzfb, c.cpid, c.qoffset, c.qdelta, c.prio, c.da, c.len, c.msdu }

function cnm.dissector(tvb, pinfo, tree)
    pinfo.cols.protocol = "CNM"
    local t = tree:add(cnm, tvb())
    t:add(c.version, tvb(0, 2))
    t:add(c.reserved, tvb(0, 2))
    t:add(c.qntzfb, tvb(0, 2))
    t:add(c.cpid, tvb(2, 8))
    t:add(c.qoffset, tvb(10, 2))
    t:add(c.qdelta, tvb(12, 2))
    t:add(c.prio, tvb(14, 2))
    t:add(c.da, tvb(16, 6))
    t:add(c.len, tvb(22, 2))
    if tvb:len() > 24 then
        t:add(c.msdu, tvb(24))
    end
    pinfo.cols.info = string.format("CNM QntzFb=%d CPID=%s", bit.band(tvb(0, 2):uint(), 0x3F), tostring(tvb(2, 8):uint64():tohex()))
end
ethertype:add(0x22E7, cnm)

-- cnsim shim: subtype (1 B), version (1 B), next EtherType (2 B), then the subtype's fields.
local shim = Proto("cnsim", "cnsim shim")
local subtypes = { [1] = "data", [2] = "E-QCN tag", [3] = "BCN rate-regulator tag", [4] = "BCN message",
                   [5] = "ECM message", [6] = "QCN probe" }
local probe_modes = { [0] = "none", [1] = "CP-directed", [2] = "sub-path", [3] = "path" }
local s = {
    subtype = ProtoField.uint8("cnsim.subtype", "Subtype", base.DEC, subtypes),
    version = ProtoField.uint8("cnsim.version", "Version", base.DEC),
    next = ProtoField.uint16("cnsim.next", "Next EtherType", base.HEX),
    flow = ProtoField.uint32("cnsim.flow", "Flow", base.DEC),
    created = ProtoField.uint64("cnsim.created_ps", "Created at the source (ps)", base.DEC),
    fb_hat = ProtoField.uint8("cnsim.eqcn.fb_hat", "E-QCN saved feedback (Fb hat)", base.DEC),
    cpid = ProtoField.uint64("cnsim.cpid", "CPID", base.HEX),
    e = ProtoField.float("cnsim.bcn.e", "BCN e (frames)"),
    capacity = ProtoField.uint32("cnsim.bcn.capacity_kbps", "BCN capacity C (kb/s)", base.DEC),
    stop = ProtoField.uint8("cnsim.bcn.stop", "BCN STOP", base.DEC),
    ecm_fb = ProtoField.float("cnsim.ecm.fb", "ECM Fb"),
    ecm_echo = ProtoField.uint64("cnsim.ecm.echo_ps", "ECM echoed send time (ps; all ones: none)", base.DEC),
    probe_mode = ProtoField.uint8("cnsim.probe.mode", "Probe mode", base.DEC, probe_modes),
    probe_fb = ProtoField.int32("cnsim.probe.fb", "Probe worst Fb (quantized, signed)", base.DEC),
    probe_by = ProtoField.uint64("cnsim.probe.stamped_by", "Probe stamped by CPID (all ones: none)", base.HEX),
}
shim.fields = { s.subtype, s.version, s.next, s.flow, s.created, s.fb_hat, s.cpid, s.e, s.capacity, s.stop,
                s.ecm_fb, s.ecm_echo, s.probe_mode, s.probe_fb, s.probe_by }

function shim.dissector(tvb, pinfo, tree)
    local sub = tvb(0, 1):uint()
    local t = tree:add(shim, tvb(), "cnsim: " .. (subtypes[sub] or "unknown"))
    t:add(s.subtype, tvb(0, 1))
    t:add(s.version, tvb(1, 1))
    t:add(s.next, tvb(2, 2))
    local o = 4
    if sub == 1 then
        t:add(s.flow, tvb(4, 4))
        t:add(s.created, tvb(8, 8))
        o = 16
        pinfo.cols.protocol = "cnsim"
        pinfo.cols.info = string.format("data flow %d", tvb(4, 4):uint())
    elseif sub == 2 then
        t:add(s.fb_hat, tvb(4, 1))
        t:add(s.cpid, tvb(5, 8))
        o = 13
    elseif sub == 3 then
        t:add(s.cpid, tvb(4, 8))
        o = 12
    elseif sub == 4 then
        t:add(s.cpid, tvb(4, 8))
        t:add(s.e, tvb(12, 4))
        t:add(s.capacity, tvb(16, 4))
        t:add(s.stop, tvb(20, 1))
        o = 21
        pinfo.cols.protocol = "BCN"
        pinfo.cols.info = string.format("BCN e=%.3f%s", tvb(12, 4):float(), tvb(20, 1):uint() ~= 0 and " STOP" or "")
    elseif sub == 5 then
        t:add(s.cpid, tvb(4, 8))
        t:add(s.ecm_fb, tvb(12, 4))
        t:add(s.ecm_echo, tvb(16, 8))
        o = 24
        pinfo.cols.protocol = "ECM"
        pinfo.cols.info = string.format("ECM Fb=%.3f", tvb(12, 4):float())
    elseif sub == 6 then
        t:add(s.probe_mode, tvb(4, 1))
        t:add(s.cpid, tvb(5, 8))
        t:add(s.probe_fb, tvb(13, 4))
        t:add(s.probe_by, tvb(17, 8))
        o = 25
        pinfo.cols.protocol = "QCN probe"
        pinfo.cols.info = string.format("QCN probe %s", probe_modes[tvb(4, 1):uint()] or "?")
    end
    t:set_len(o)
    if tvb:len() > o then
        next_type(tvb(o):tvb(), pinfo, tree, tvb(2, 2):uint())
    end
end
ethertype:add(0x88B5, shim)

-- RoCEv2 CNP: Wireshark's InfiniBand dissector decodes the BTH but names opcode 0x81 (129) "Unknown
-- OpCode" (4.0). A CNP is the one RoCEv2 packet with that opcode (IBA Vol. 1 Annex A17 §A17.9.3), so
-- this post-dissector names it in the protocol and info columns and adds the destination QP (the
-- flow, in cnsim's captures) under its own tree item.
local cnp = Proto("cnsim_cnp", "RoCEv2 Congestion Notification Packet")
local f_cnp_qp = ProtoField.uint32("cnsim_cnp.dest_qp", "Destination QP (the notified flow)", base.DEC)
cnp.fields = { f_cnp_qp }
local bth_opcode = Field.new("infiniband.bth.opcode")
local bth_destqp = Field.new("infiniband.bth.destqp")

function cnp.dissector(tvb, pinfo, tree)
    local op = bth_opcode()
    if op == nil or op.value ~= 0x81 then
        return
    end
    local qp = bth_destqp()
    local t = tree:add(cnp, op.range)
    if qp ~= nil then
        t:add(f_cnp_qp, qp.range, qp.value)
    end
    pinfo.cols.protocol = "RoCEv2 CNP"
    pinfo.cols.info = string.format("CNP (Congestion Notification Packet) to QP %s", qp and tostring(qp.value) or "?")
end
register_postdissector(cnp)
