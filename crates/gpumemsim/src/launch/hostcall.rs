//! The host's half of HIP's hostcall (clang-19's default printf for HIP, and `assert`'s
//! message): the hostcall buffer a kernel gets in `hidden_hostcall_buffer`, and the host
//! thread that services its packets while the kernel runs — here, whenever a wave sleeps
//! (`s_sleep`), which is what a wave waiting for the host does
//! (docs/rules/addressing.md#printf).
//!
//! The layout and the protocol are those of the device library's `__ockl_hostcall_internal`
//! (ROCm 5.2's ockl, read from its IR) and ROCm's runtime (`devhostcall`, `devhcmessages`,
//! `devhcprintf`):
//! - the buffer: pointers to the packet headers (0) and payloads (8), the doorbell signal
//!   (16), the free stack (24), the ready stack (32), the index mask (40);
//! - a packet header (24 bytes): next (0), the wave's EXEC (8), the service (16), control
//!   (20, bit 0 set while the wave waits); a payload: 64 lanes × 8 u64;
//! - the host takes the ready stack (swaps it with 0), and for each packet, lane by lane
//!   from the lowest, runs the service on the lane's 8 words, then clears the ready bit;
//! - printf (service 2) is a message per lane: word 0 a descriptor (bit 0 begin, bit 1 end,
//!   bits 5-7 the number of data words, bits 8+ the message id the host hands out at
//!   begin), words 1-7 data; the message is a stream id, the format string (its bytes with
//!   the NUL, packed in words), then each argument as a word, a `%s` string inline. At the
//!   end, the host prints and answers the character count.

use std::collections::HashMap;
use std::sync::Mutex;

use super::printf::{format_words, string_at};
use crate::addr::GlobalMemory;

/// Where the hostcall buffer is placed, when the kernel has one.
pub const HOSTCALL_BASE: u64 = 0x7a00_0000_0000;
/// Packets of the buffer: one per wave that may wait for the host at once (the device
/// takes one with no check that one is left).
pub const HOSTCALL_PACKETS: u64 = 1024;

const HEADER_BYTES: u64 = 48;
const SIGNAL_AT: u64 = 64;
const HEADERS_AT: u64 = 128;
const PACKET_HEADER: u64 = 24;
const PAYLOAD: u64 = 64 * 8 * 8;
const SERVICE_PRINTF: u32 = 2;
// The signal follows the header.
const _: () = assert!(HEADER_BYTES <= SIGNAL_AT);

/// The buffer's bytes from [`HOSTCALL_BASE`] as the runtime initialises them: the header,
/// a user signal with no event mailbox (so the doorbell is only its value), and the free
/// stack through every packet (packet 1's next names packet 0 with tag 1: not null).
pub fn initial_buffer() -> (Vec<u8>, u64) {
    let n = HOSTCALL_PACKETS;
    let payloads = HEADERS_AT + n * PACKET_HEADER;
    let len = payloads + n * PAYLOAD;
    let mask = n.next_power_of_two() - 1;
    let mut b = vec![0u8; payloads as usize];
    let mut put =
        |at: u64, v: u64| b[at as usize..at as usize + 8].copy_from_slice(&v.to_le_bytes());
    put(0, HOSTCALL_BASE + HEADERS_AT);
    put(8, HOSTCALL_BASE + payloads);
    put(16, HOSTCALL_BASE + SIGNAL_AT);
    put(24, n - 1);
    put(32, 0);
    put(40, mask);
    put(SIGNAL_AT, 1); // AMD_SIGNAL_KIND_USER
    for i in 1..n {
        let next = if i == 1 { mask + 1 } else { i - 1 };
        put(HEADERS_AT + i * PACKET_HEADER, next);
    }
    (b, len)
}

/// The host thread: the messages being assembled, per id, and what was printed.
#[derive(Debug, Default)]
pub struct HostcallHost {
    state: Mutex<HostState>,
}

#[derive(Debug, Default)]
struct HostState {
    next_id: u64,
    messages: HashMap<u64, Vec<u64>>,
    printed: Vec<String>,
    /// Packets of services the host does not provide, by service id.
    unknown: Vec<u32>,
}

impl HostcallHost {
    /// What the kernel printed so far, one string per printf, in the order the host
    /// finished them; then a line for each packet of a service the host does not provide.
    pub fn printed(&self) -> Vec<String> {
        let Ok(s) = self.state.lock() else {
            return Vec::new();
        };
        let mut out = s.printed.clone();
        out.extend(s.unknown.iter().map(|id| {
            format!("<gpumemsim: a hostcall of service {id}, which the simulator does not provide, was answered 0>")
        }));
        out
    }
}

/// The host thread's service: whenever a wave sleeps, every packet on the ready stack of
/// the buffer in `memory` is answered, in the order the module's account gives.
impl crate::exec::HostService for HostcallHost {
    /// Services every packet on the ready stack of the buffer in `memory`.
    fn service(&self, memory: &mut GlobalMemory) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        let read = |m: &GlobalMemory, at: u64| {
            let mut b = [0u8; 8];
            m.read_into(at, &mut b);
            u64::from_le_bytes(b)
        };
        let base = HOSTCALL_BASE;
        let (headers, payloads, mask) = (
            read(memory, base),
            read(memory, base + 8),
            read(memory, base + 40),
        );
        let mut p = read(memory, base + 32);
        if p == 0 {
            return;
        }
        memory.write_bytes(base + 32, &0u64.to_le_bytes());
        // At most every packet once: a ready stack the device broke into a cycle ends here.
        for _ in 0..HOSTCALL_PACKETS {
            if p == 0 {
                break;
            }
            let i = p & mask;
            let header = headers + i * PACKET_HEADER;
            let next = read(memory, header);
            let exec = read(memory, header + 8);
            let service = memory.read_u32(header + 16);
            if service != SERVICE_PRINTF {
                state.unknown.push(service);
            }
            for lane in (0..64).filter(|l| exec >> l & 1 == 1) {
                let slots = payloads + i * PAYLOAD + lane * 64;
                let mut words = [0u64; 8];
                for (k, w) in words.iter_mut().enumerate() {
                    *w = read(memory, slots + 8 * k as u64);
                }
                let answer = if service == SERVICE_PRINTF {
                    state.message(&words)
                } else {
                    0
                };
                memory.write_bytes(slots, &answer.to_le_bytes());
            }
            // Clearing the ready bit releases the wave: the packet's last write.
            let control = memory.read_u32(header + 20) & !1;
            memory.write_bytes(header + 20, &control.to_le_bytes());
            p = next;
        }
    }

    fn reset(&self) {
        if let Ok(mut s) = self.state.lock() {
            *s = HostState::default();
        }
    }
}

impl HostState {
    /// One lane's printf packet: its words appended to its message; the descriptor to
    /// answer (with the message id, after a begin), or at the end the characters printed.
    fn message(&mut self, words: &[u64; 8]) -> u64 {
        let mut desc = words[0];
        if desc & 1 == 1 {
            self.next_id += 1;
            desc = (desc & 0xff & !1) | self.next_id << 8;
            self.messages.insert(self.next_id, Vec::new());
        }
        let id = desc >> 8;
        let len = ((desc >> 5) & 7) as usize;
        let Some(msg) = self.messages.get_mut(&id) else {
            return u64::MAX;
        };
        msg.extend_from_slice(&words[1..1 + len]);
        if desc & 2 == 0 {
            return desc;
        }
        let msg = self.messages.remove(&id).unwrap_or_default();
        match printf_message(&msg) {
            Some(text) => {
                let n = text.len() as u64;
                self.printed.push(text);
                n
            }
            None => u64::MAX,
        }
    }
}

/// A printf message's text: `[stream][format words][arguments]` (stream 0 stdout, 1
/// stderr); `None` for a message the runtime refuses (another control bit set).
fn printf_message(words: &[u64]) -> Option<String> {
    let control = *words.first()?;
    if control & !1 != 0 {
        return None;
    }
    let (format, used) = string_at(words, 1);
    Some(format_words(&format, &words[1 + used..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs `s` with its NUL into words, as `__ockl_printf_append_string_n` sends it.
    fn packed(s: &str) -> Vec<u64> {
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        b.chunks(8)
            .map(|c| {
                let mut w = [0u8; 8];
                w[..c.len()].copy_from_slice(c);
                u64::from_le_bytes(w)
            })
            .collect()
    }

    #[test]
    fn a_message_prints_its_format_with_inline_strings_and_words() {
        let mut words = vec![0];
        words.extend(packed("x=%d %s y=%.1f %lx|"));
        words.push(u64::from((-5i32) as u32));
        words.extend(packed("abcdefghij"));
        words.push(2.25f64.to_bits());
        words.push(0x1_0000_0000);
        assert_eq!(
            printf_message(&words).as_deref(),
            Some("x=-5 abcdefghij y=2.2 100000000|")
        );
        // Arguments missing: printing stops at the conversion.
        let mut short = vec![0];
        short.extend(packed("a=%d b=%d"));
        short.push(1);
        assert_eq!(printf_message(&short).as_deref(), Some("a=1 b="));
        assert_eq!(printf_message(&[4]), None);
    }

    /// The buffer serviced as the device leaves it: a packet on the ready stack with two
    /// lanes' begin packets gets ids back and its ready bit cleared.
    #[test]
    fn the_host_answers_the_packets_on_the_ready_stack() {
        let (bytes, len) = initial_buffer();
        let mut m = GlobalMemory::new();
        m.write_bytes(HOSTCALL_BASE, &bytes);
        let header = HOSTCALL_BASE + HEADERS_AT + 5 * PACKET_HEADER;
        let payload = HOSTCALL_BASE + HEADERS_AT + HOSTCALL_PACKETS * PACKET_HEADER + 5 * PAYLOAD;
        assert!(payload + PAYLOAD <= HOSTCALL_BASE + len);
        m.write_bytes(header + 8, &0b1010u64.to_le_bytes());
        m.write_bytes(header + 16, &SERVICE_PRINTF.to_le_bytes());
        m.write_bytes(header + 20, &1u32.to_le_bytes());
        for lane in [1u64, 3] {
            m.write_bytes(payload + lane * 64, &33u64.to_le_bytes());
        }
        m.write_bytes(HOSTCALL_BASE + 32, &5u64.to_le_bytes());
        let host = HostcallHost::default();
        crate::exec::HostService::service(&host, &mut m);
        let read = |at: u64| {
            let mut b = [0u8; 8];
            m.read_into(at, &mut b);
            u64::from_le_bytes(b)
        };
        assert_eq!(read(HOSTCALL_BASE + 32), 0, "the ready stack is taken");
        assert_eq!(read(header + 16) >> 32, 0, "the ready bit is cleared");
        assert_eq!(
            read(payload + 64),
            1 << 8 | 32,
            "lane 1: id 1, begin cleared"
        );
        assert_eq!(read(payload + 3 * 64), 2 << 8 | 32, "lane 3: id 2");
        assert_eq!(read(payload), 0, "lane 0 is not active");
    }
}
