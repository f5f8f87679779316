//! Scalar-memory clauses and groups (docs/rules/smem.md#clauses-and-groups):
//!
//! - a clause starts with `s_clause` and lasts 2-63 instructions (`simm16[5:0]` holds the
//!   length minus one, so 0 and 63 encode lengths the rule forbids);
//! - a group is a run of SMEM instructions that ends at the first non-SMEM instruction;
//! - an invalidate (`s_dcache_inv`, `s_gl1_inv`) must be alone in its group and never in a
//!   clause.
//!
//! Groups are tracked as the wave executes them (a branch between two SMEM instructions
//! ends the group, since the branch is not SMEM). A breach is reported once, at the
//! instruction that makes it; the hardware runs the code anyway.

/// What the tracker needs to know of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClauseClass {
    /// `s_clause` with its `simm16`.
    Clause(u32),
    /// A scalar-memory load or probe.
    Smem,
    /// A scalar-cache or GL1 invalidate.
    Invalidate,
    /// Anything else.
    Other,
}

/// A broken rule: the event kind and its message.
pub type Breach = (&'static str, String);

/// Per-wave clause and group state.
#[derive(Clone, Debug, Default)]
pub struct ClauseTracker {
    /// Instructions of the current clause still to come.
    clause_left: u32,
    /// SMEM instructions in the current group so far.
    group_len: u32,
    /// Whether the current group holds an invalidate.
    group_has_inv: bool,
}

impl ClauseTracker {
    /// Observes the next executed instruction; returns the rule it breaks, if any.
    #[inline]
    pub fn observe(&mut self, class: ClauseClass) -> Option<Breach> {
        // Outside any clause and group another instruction changes nothing (`group_has_inv`
        // is set only in a group): the common case, decided without a call.
        if class == ClauseClass::Other && self.clause_left == 0 && self.group_len == 0 {
            return None;
        }
        self.observe_any(class)
    }

    /// [`ClauseTracker::observe`] in a clause or a group, or of a clause, SMEM or
    /// invalidate instruction.
    fn observe_any(&mut self, class: ClauseClass) -> Option<Breach> {
        let in_clause = self.clause_left > 0;
        self.clause_left = self.clause_left.saturating_sub(1);
        match class {
            ClauseClass::Smem | ClauseClass::Invalidate => {
                let inv = class == ClauseClass::Invalidate;
                let breach = if inv && in_clause {
                    Some((
                        "smem_clause",
                        "an invalidate must not be in a clause (docs/rules/smem.md#clauses-and-groups)".to_string(),
                    ))
                } else if self.group_len > 0 && (inv || self.group_has_inv) {
                    Some((
                        "smem_group",
                        "an invalidate must be alone in its group of SMEM instructions (docs/rules/smem.md#clauses-and-groups)"
                            .to_string(),
                    ))
                } else {
                    None
                };
                self.group_len += 1;
                self.group_has_inv |= inv;
                breach
            }
            ClauseClass::Clause(simm16) => {
                self.end_group();
                let len = (simm16 & 0x3f) + 1;
                self.clause_left = len;
                (!(2..=63).contains(&len)).then(|| {
                    (
                        "smem_clause",
                        format!(
                            "a clause lasts 2-63 instructions, this one {len} (docs/rules/smem.md#clauses-and-groups)"
                        ),
                    )
                })
            }
            ClauseClass::Other => {
                self.end_group();
                None
            }
        }
    }

    fn end_group(&mut self) {
        self.group_len = 0;
        self.group_has_inv = false;
    }
}

#[cfg(test)]
mod tests {
    use super::ClauseClass::*;
    use super::*;

    fn kinds(seq: &[ClauseClass]) -> Vec<Option<&'static str>> {
        let mut t = ClauseTracker::default();
        seq.iter().map(|&c| t.observe(c).map(|b| b.0)).collect()
    }

    #[test]
    fn clause_lengths_outside_2_to_63_are_breaches() {
        assert_eq!(kinds(&[Clause(0)]), [Some("smem_clause")]);
        assert_eq!(kinds(&[Clause(1)]), [None]);
        assert_eq!(kinds(&[Clause(62)]), [None]);
        assert_eq!(kinds(&[Clause(63)]), [Some("smem_clause")]);
        // Only the low six bits give the length.
        assert_eq!(kinds(&[Clause(0x101)]), [None]);
    }

    /// A clause counts every instruction after it, SMEM or not: an invalidate after a
    /// two-instruction clause has run out is not in it; one inside it is.
    #[test]
    fn an_invalidate_in_a_clause_is_a_breach_and_after_it_is_not() {
        let cases: [(&[ClauseClass], Option<&str>); 4] = [
            (&[Clause(1), Smem, Other, Invalidate], None),
            (&[Clause(2), Smem, Other, Invalidate], Some("smem_clause")),
            (&[Clause(1), Other, Other, Invalidate], None),
            (&[Clause(1), Other, Invalidate], Some("smem_clause")),
        ];
        for (seq, last) in cases {
            let mut want = vec![None; seq.len()];
            want[seq.len() - 1] = last;
            assert_eq!(kinds(seq), want, "{seq:?}");
        }
    }

    #[test]
    fn an_invalidate_must_be_alone_in_its_group() {
        assert_eq!(kinds(&[Smem, Invalidate]), [None, Some("smem_group")]);
        assert_eq!(kinds(&[Invalidate, Smem]), [None, Some("smem_group")]);
        assert_eq!(kinds(&[Invalidate, Invalidate]), [None, Some("smem_group")]);
        assert_eq!(
            kinds(&[Smem, Smem, Other, Invalidate, Other, Smem]),
            [None, None, None, None, None, None]
        );
    }
}
