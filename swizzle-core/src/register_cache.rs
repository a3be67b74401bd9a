//! The register cache of the register-cache article as a layout: which lane of a warp holds which input element in which register,
//! and, at each step of a 1D stencil, which lane each lane reads and which register that lane publishes.
//!
//! A warp computes `32 * P` consecutive outputs of a k-stencil (`P` = outputs per lane, `k` = radius), so it needs
//! the `32 * P + 2k` inputs starting at its first output. They are spread over the lanes in rows of `32 * P`:
//!
//! ```text
//!   input e (warp-relative)  =  row * 32P  +  lane * P  +  i        lives in  rc[row * P + i]  of  lane
//!   row 0: every lane holds P consecutive inputs (one 16-byte vector per lane when P = 4 fp32)
//!   row 1: lanes 0 .. ceil(2k / P) hold the 2k halo inputs that follow (2k <= 32P: two rows always suffice)
//! ```
//!
//! Step `t` (`0 <= t < P + 2k`): lane `j` wants input `j * P + t`. Write `t = delta * P + slot`; that input sits
//! in lane `j + delta` at register `slot`, or, when `j + delta` runs past lane 31, in lane `(j + delta) % 32` at
//! register `P + slot` (row 1). One `__shfl_sync` per step serves every lane at once because the register a lane
//! publishes depends on the publishing lane alone:
//!
//! ```text
//!   source_lane(t, j)   = (j + delta(t)) % 32
//!   published(t, L)     = rc[slot(t)]           if L >= delta(t)
//!                         rc[P + slot(t)]       if L <  delta(t)      (the lanes the readers wrapped around to)
//! ```
//! Steps with `delta = 0` read the lane's own register: no shuffle. Output `q` of a lane sums the values of steps
//! `q ..= q + 2k`. So a warp issues `2k` shuffles for `32 * P` outputs; shared memory would serve `P + 2k` reads.
//! The register-cache article's listing is the case `P = 1, k = 1`: `(local_id + i) % warpSize`, and `rc[1]` for `local_id < i`.
//!
//! The schedule ([`RegisterCache::schedule`]: `delta` and `slot` per step) is data; [`RegisterCache::check`] walks
//! every (step, lane) and proves from the layout alone ([`RegisterCache::holder`]) that the lane read holds the
//! element at the register it publishes, inside the warp. The CUDA side gets the schedule as generated code
//! ([`RegisterCache::cuda_struct`]), never a retyped formula.

use core::fmt;

/// Lanes per warp.
pub const WARP: u32 = 32;

/// The most outputs per lane a cache may have (registers grow as `2 * P`).
pub const MAX_PER_LANE: u32 = 16;

/// The most steps a schedule has: `P + 2k` with `2k <= 32 * P`.
pub const MAX_STEPS: usize = (MAX_PER_LANE + WARP * MAX_PER_LANE) as usize;

/// A warp-wide register cache for a 1D stencil of radius `radius` with `per_lane` outputs per lane.
///
/// ```
/// use swizzle_core::register_cache::RegisterCache;
/// // The register-cache article's kernel: one output per lane, k = 1 (3 inputs per output).
/// const SEED: RegisterCache = RegisterCache::new(1, 1);
/// const _: () = assert!(SEED.check().is_ok());
/// assert_eq!(SEED.steps(), 3);
/// assert_eq!((SEED.source_lane(1, 31), SEED.published_reg(1, 0)), (0, 1)); // lane 31 reads lane 0's rc[1]
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegisterCache {
    /// `P`: consecutive outputs (and row-0 inputs) per lane.
    pub per_lane: u32,
    /// `k`: each output reads `2k + 1` inputs.
    pub radius: u32,
}

/// One step of the schedule: lane `j` reads lane `(j + delta) % 32`, register `slot` (or `per_lane + slot`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// Lane distance to the source lane.
    pub delta: u32,
    /// Register slot read from it.
    pub slot: u32,
}

/// Why a register cache or its schedule is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RcError {
    /// `per_lane` is 0, above [`MAX_PER_LANE`], or not a power of two.
    PerLane(u32),
    /// `radius` is 0, or the halo (`2k`) does not fit one extra row (`2k > 32 * P`).
    Radius {
        /// The radius given.
        radius: u32,
        /// Elements per lane.
        per_lane: u32,
    },
    /// The schedule has not `P + 2k` steps.
    StepCount {
        /// `P + 2k`.
        expected: u32,
        /// Steps given.
        got: u32,
    },
    /// At `step`, `lane` wants warp input `element`, but the lane it reads (`source`) publishes register `reg`,
    /// which holds `held` (`None`: a register nobody loaded). The element lives at `holder` (lane, register).
    WrongSource {
        /// The step.
        step: u32,
        /// The reading lane.
        lane: u32,
        /// The warp input it wants.
        element: u32,
        /// The lane it reads.
        source: u32,
        /// The register that lane publishes.
        reg: u32,
        /// What that register holds.
        held: Option<u32>,
        /// Where `element` lives: (lane, register).
        holder: (u32, u32),
    },
}

impl fmt::Display for RcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RcError::PerLane(p) => {
                write!(
                    f,
                    "outputs per lane must be a power of two in 1..={MAX_PER_LANE}, got {p}"
                )
            }
            RcError::Radius { radius, per_lane } => write!(
                f,
                "radius {radius} does not fit a register cache with {per_lane} outputs per lane \
                 (need 1 <= k and 2k <= {})",
                WARP * per_lane
            ),
            RcError::StepCount { expected, got } => {
                write!(f, "schedule has {got} steps, the stencil needs {expected}")
            }
            RcError::WrongSource {
                step,
                lane,
                element,
                source,
                reg,
                held,
                holder: (holder_lane, holder_reg),
            } => {
                write!(
                    f,
                    "step {step}: lane {lane} needs warp input {element} (held by lane {holder_lane} in \
                     rc[{holder_reg}]) but reads lane {source} rc[{reg}], "
                )?;
                match held {
                    Some(e) => write!(f, "which holds input {e}"),
                    None => write!(f, "which that lane never loads"),
                }
            }
        }
    }
}

impl RegisterCache {
    /// A register cache; panics (a build error in `const`) when [`RegisterCache::validate`] refuses it.
    pub const fn new(per_lane: u32, radius: u32) -> RegisterCache {
        match RegisterCache::try_new(per_lane, radius) {
            Ok(rc) => rc,
            Err(RcError::PerLane(_)) => {
                panic!("register cache: outputs per lane must be a power of two <= 16")
            }
            Err(_) => panic!("register cache: need 1 <= k and 2k <= 32 * outputs per lane"),
        }
    }

    /// A register cache, or why not.
    pub const fn try_new(per_lane: u32, radius: u32) -> Result<RegisterCache, RcError> {
        let rc = RegisterCache { per_lane, radius };
        match rc.validate() {
            Ok(()) => Ok(rc),
            Err(e) => Err(e),
        }
    }

    /// The shape rules: `P` a power of two in `1..=16`, `1 <= k`, `2k <= 32 * P` (the halo fits one row).
    pub const fn validate(&self) -> Result<(), RcError> {
        let p = self.per_lane;
        if p == 0 || p > MAX_PER_LANE || !p.is_power_of_two() {
            return Err(RcError::PerLane(p));
        }
        if self.radius == 0 || 2 * self.radius > WARP * p {
            return Err(RcError::Radius {
                radius: self.radius,
                per_lane: p,
            });
        }
        Ok(())
    }

    /// Inputs one warp needs: `32 * P + 2k`.
    pub const fn inputs(&self) -> u32 {
        WARP * self.per_lane + 2 * self.radius
    }

    /// Registers per lane: two rows of `P`.
    pub const fn registers(&self) -> u32 {
        2 * self.per_lane
    }

    /// Lanes that load a row-1 (halo) register: `ceil(2k / P)`.
    pub const fn halo_lanes(&self) -> u32 {
        (2 * self.radius).div_ceil(self.per_lane)
    }

    /// Steps per output group: `P + 2k`.
    pub const fn steps(&self) -> u32 {
        self.per_lane + 2 * self.radius
    }

    /// Warp shuffles per lane (steps with `delta > 0`): `2k`.
    pub const fn shuffles(&self) -> u32 {
        2 * self.radius
    }

    /// Whether `lane` loads register `reg` (row 0 always; row 1 on the halo lanes only).
    pub const fn holds(&self, lane: u32, reg: u32) -> bool {
        lane < WARP && (reg < self.per_lane || (reg < self.registers() && lane < self.halo_lanes()))
    }

    /// The warp input that `lane` holds in register `reg` (the layout), or `None` if it loads none there.
    /// Row-1 registers past the halo (`P` does not divide `2k`) are loaded too but hold nothing a step reads.
    ///
    /// ```
    /// use swizzle_core::register_cache::RegisterCache;
    /// let rc = RegisterCache::new(4, 2);            // 128 outputs per warp, inputs 0..132
    /// assert_eq!(rc.element(5, 2), Some(22));      // lane 5 row 0: inputs 20..24
    /// assert_eq!(rc.element(0, 5), Some(129));     // lane 0 row 1: inputs 128..132
    /// assert_eq!(rc.element(1, 4), None);          // only lane 0 loads a halo row
    /// ```
    pub const fn element(&self, lane: u32, reg: u32) -> Option<u32> {
        if !self.holds(lane, reg) {
            return None;
        }
        let (row, i) = (reg / self.per_lane, reg % self.per_lane);
        Some(row * WARP * self.per_lane + lane * self.per_lane + i)
    }

    /// The (lane, register) that holds warp input `e` (the inverse of [`RegisterCache::element`]), or `None` past
    /// the warp's inputs.
    pub const fn holder(&self, e: u32) -> Option<(u32, u32)> {
        if e >= self.inputs() {
            return None;
        }
        let row_len = WARP * self.per_lane;
        let (row, r) = (e / row_len, e % row_len);
        Some((r / self.per_lane, row * self.per_lane + r % self.per_lane))
    }

    /// Step `t` of the schedule: `delta = t / P`, `slot = t % P`.
    pub const fn step(&self, t: u32) -> Step {
        Step {
            delta: t / self.per_lane,
            slot: t % self.per_lane,
        }
    }

    /// The whole schedule, steps `0 .. P + 2k` (the rest of the array is unused).
    pub const fn schedule(&self) -> [Step; MAX_STEPS] {
        let mut s = [Step { delta: 0, slot: 0 }; MAX_STEPS];
        let mut t = 0;
        while t < self.steps() {
            s[t as usize] = self.step(t);
            t += 1;
        }
        s
    }

    /// The lane that lane `lane` reads at step `t`.
    pub const fn source_lane(&self, t: u32, lane: u32) -> u32 {
        source_lane(self.step(t), lane)
    }

    /// The register that lane `lane` publishes at step `t`.
    pub const fn published_reg(&self, t: u32, lane: u32) -> u32 {
        published_reg(self.per_lane, self.step(t), lane)
    }

    /// Whether output `q` of a lane sums the value of step `t` (`q <= t <= q + 2k`).
    pub const fn uses(&self, q: u32, t: u32) -> bool {
        q < self.per_lane && q <= t && t <= q + 2 * self.radius
    }

    /// The cache's own schedule is served: [`RegisterCache::check_schedule`] on [`RegisterCache::schedule`].
    pub const fn check(&self) -> Result<(), RcError> {
        if let Err(e) = self.validate() {
            return Err(e);
        }
        let s = self.schedule();
        self.check_schedule(s.split_at(self.steps() as usize).0)
    }

    /// Every read of `steps` is served: at each step `t` every lane `j` needs warp input `j * P + t` (all of them
    /// inside the warp's inputs), and the lane it reads holds exactly that element in the register it publishes.
    /// Only the layout ([`RegisterCache::element`]) decides what a register holds, so a schedule that reads a
    /// wrong lane, a wrong register, or a register nobody loaded is refused, with the first such read.
    pub const fn check_schedule(&self, steps: &[Step]) -> Result<(), RcError> {
        if steps.len() != self.steps() as usize {
            return Err(RcError::StepCount {
                expected: self.steps(),
                got: steps.len() as u32,
            });
        }
        let mut t = 0;
        while t < steps.len() {
            let mut lane = 0;
            while lane < WARP {
                let element = lane * self.per_lane + t as u32;
                let source = source_lane(steps[t], lane);
                let reg = published_reg(self.per_lane, steps[t], source);
                let held = self.element(source, reg);
                let holder = match self.holder(element) {
                    Some(h) => h,
                    None => (WARP, 0), // unreachable: j * P + t < 32P + 2k for t < P + 2k
                };
                let served = match held {
                    Some(e) => e == element,
                    None => false,
                };
                if !served {
                    return Err(RcError::WrongSource {
                        step: t as u32,
                        lane,
                        element,
                        source,
                        reg,
                        held,
                        holder,
                    });
                }
                lane += 1;
            }
            t += 1;
        }
        Ok(())
    }

    /// The C++ struct the kernels read the cache from, in `namespace swz` (include after `swz.cuh`, which defines
    /// `SWZ_HD` and `uint32_t`). Tables are emitted as `switch`es in `constexpr` functions: under full unrolling
    /// every index folds to a constant, so `rc[...]` stays in registers.
    ///
    /// ```
    /// use swizzle_core::register_cache::RegisterCache;
    /// let text = RegisterCache::new(1, 1).cuda_struct("Rc");
    /// assert!(text.contains("struct Rc {"));
    /// assert!(text.contains("case 2: return 2u;")); // delta of step 2
    /// ```
    pub fn cuda_struct(&self, name: &str) -> String {
        let steps = self.steps();
        let table = |f: &dyn Fn(Step) -> u32| {
            (0..steps)
                .map(|t| format!("case {t}: return {}u;", f(self.step(t))))
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "namespace swz {{\n\
             // {self}: generated by swizzle_core::register_cache, do not edit.\n\
             // Warp input e = row * {row_len} + lane * per_lane + i lives in rc[row * per_lane + i] of lane.\n\
             // Step t: lane j reads lane (j + delta(t)) % {WARP}, which publishes rc[slot(t)], or\n\
             // rc[per_lane + slot(t)] when it is below delta(t). Output q sums steps q ..= q + 2 * radius.\n\
             struct {name} {{\n    \
                 static constexpr uint32_t warp = {WARP}u, per_lane = {p}u, radius = {k}u;\n    \
                 static constexpr uint32_t registers = {regs}u, halo_lanes = {halo}u, steps = {steps}u;\n    \
                 SWZ_HD static constexpr uint32_t delta(uint32_t t) {{ switch (t) {{ {deltas} default: return 0u; }} }}\n    \
                 SWZ_HD static constexpr uint32_t slot(uint32_t t) {{ switch (t) {{ {slots} default: return 0u; }} }}\n    \
                 // Whether `lane` loads register `reg`, and the warp input it holds there.\n    \
                 SWZ_HD static constexpr bool holds(uint32_t lane, uint32_t reg) {{\n        \
                     return reg < per_lane || (reg < registers && lane < halo_lanes);\n    }}\n    \
                 SWZ_HD static constexpr uint32_t element(uint32_t lane, uint32_t reg) {{\n        \
                     return (reg / per_lane) * warp * per_lane + lane * per_lane + reg % per_lane;\n    }}\n    \
                 SWZ_HD static constexpr bool is_local(uint32_t t) {{ return delta(t) == 0u; }}\n    \
                 SWZ_HD static constexpr uint32_t source_lane(uint32_t t, uint32_t lane) {{ return (lane + delta(t)) % warp; }}\n    \
                 // The value `lane` publishes at step t, from its registers `rc`.\n    \
                 template <typename T>\n    \
                 SWZ_HD static T published(const T* rc, uint32_t t, uint32_t lane) {{\n        \
                     return lane < delta(t) ? rc[per_lane + slot(t)] : rc[slot(t)];\n    }}\n    \
                 SWZ_HD static constexpr bool uses(uint32_t q, uint32_t t) {{ return q <= t && t <= q + 2u * radius; }}\n\
             }};\n\
             }}  // namespace swz\n",
            row_len = WARP * self.per_lane,
            p = self.per_lane,
            k = self.radius,
            regs = self.registers(),
            halo = self.halo_lanes(),
            deltas = table(&|s| s.delta),
            slots = table(&|s| s.slot),
        )
    }
}

/// `(lane + delta) % 32`: the lane a reader reads.
const fn source_lane(s: Step, lane: u32) -> u32 {
    (lane + s.delta) % WARP
}

/// The register lane `lane` publishes: row 1 for the lanes below `delta` (the readers wrapped around to them).
const fn published_reg(per_lane: u32, s: Step, lane: u32) -> u32 {
    if lane < s.delta {
        per_lane + s.slot
    } else {
        s.slot
    }
}

impl fmt::Display for RegisterCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rc<P={}, k={}>", self.per_lane, self.radius)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every legal cache with `P <= 16` and every radius it allows.
    fn all() -> impl Iterator<Item = RegisterCache> {
        (0..=4).flat_map(|lp| {
            let p = 1u32 << lp;
            (1..=16 * p).map(move |k| RegisterCache::new(p, k))
        })
    }

    /// Run the warp on the host: load the lanes' registers from `input` by the layout, play every step as a
    /// shuffle (each lane publishes, each lane reads its source), and sum per output as the kernel does.
    fn simulate(rc: &RegisterCache, input: &[i64]) -> Vec<i64> {
        let regs: Vec<Vec<Option<i64>>> = (0..WARP)
            .map(|l| {
                (0..rc.registers())
                    .map(|r| {
                        rc.element(l, r)
                            .and_then(|e| input.get(e as usize).copied())
                    })
                    .collect()
            })
            .collect();
        let mut out = vec![0i64; (WARP * rc.per_lane) as usize];
        for t in 0..rc.steps() {
            let published: Vec<Option<i64>> = (0..WARP)
                .map(|l| regs[l as usize][rc.published_reg(t, l) as usize])
                .collect();
            for j in 0..WARP {
                let v =
                    published[rc.source_lane(t, j) as usize].expect("read an unloaded register");
                for q in 0..rc.per_lane {
                    if rc.uses(q, t) {
                        out[(j * rc.per_lane + q) as usize] += v;
                    }
                }
            }
        }
        out
    }

    #[test]
    fn every_legal_cache_checks_and_computes_the_stencil() {
        let mut n = 0;
        for rc in all() {
            assert_eq!(rc.check(), Ok(()), "{rc}");
            // Distinct powers-of-three-ish values: any misplaced or missing term changes a sum.
            let input: Vec<i64> = (0..rc.inputs() as i64)
                .map(|e| e * e * 7 + 3 * e + 1)
                .collect();
            let got = simulate(&rc, &input);
            for (i, g) in got.iter().enumerate() {
                let want: i64 = input[i..=i + 2 * rc.radius as usize].iter().sum();
                assert_eq!(*g, want, "{rc} output {i}");
            }
            n += 1;
        }
        assert_eq!(n, 16 + 32 + 64 + 128 + 256);
    }

    #[test]
    fn layout_is_a_bijection_onto_the_warp_inputs() {
        for rc in all() {
            let mut seen = vec![0; rc.inputs() as usize];
            for l in 0..WARP {
                for r in 0..rc.registers() {
                    if let Some(e) = rc.element(l, r) {
                        if e < rc.inputs() {
                            seen[e as usize] += 1;
                            assert_eq!(rc.holder(e), Some((l, r)), "{rc}");
                        }
                    }
                }
            }
            assert!(seen.iter().all(|&c| c == 1), "{rc}: {seen:?}");
            assert_eq!(rc.holder(rc.inputs()), None);
            // Every step but the own-register ones is one shuffle.
            let local = (0..rc.steps()).filter(|&t| rc.step(t).delta == 0).count() as u32;
            assert_eq!(rc.steps() - local, rc.shuffles(), "{rc}");
        }
    }

    /// The register-cache article's listing (`P = 1, k = 1`): read lane `(local_id + i) % warpSize`; lanes `local_id < i` publish
    /// `rc[1]`, the others `rc[0]`.
    #[test]
    fn the_articles_listing_is_the_p1_k1_cache() {
        let rc = RegisterCache::new(1, 1);
        assert_eq!((rc.registers(), rc.halo_lanes(), rc.steps()), (2, 2, 3));
        for i in 0..3 {
            for lane in 0..WARP {
                assert_eq!(rc.source_lane(i, lane), (lane + i) % 32);
                assert_eq!(rc.published_reg(i, lane), u32::from(lane < i));
            }
        }
    }

    /// The check is not vacuous: each kind of wrong schedule is refused, naming the first bad read.
    #[test]
    fn wrong_schedules_are_refused() {
        let rc = RegisterCache::new(4, 3); // 10 steps, halo lanes 0 and 1
        let good = rc.schedule();
        let good = &good[..rc.steps() as usize];
        assert_eq!(rc.check_schedule(good), Ok(()));
        // The article's __activemask()-era mistake in another guise: forgetting the wrap (delta one too small).
        let mut off = good.to_vec();
        off[5].delta -= 1;
        // A delta one too large reads the neighbour's element.
        let mut far = good.to_vec();
        far[9] = Step { delta: 3, slot: 1 };
        // (schedule, step = element, source, held, holder) of the first bad read, by lane 0 from rc[1].
        for (schedule, step, source, held, holder) in
            [(&off, 5, 0, 1, (1, 1)), (&far, 9, 3, 13, (2, 1))]
        {
            let e = rc.check_schedule(schedule).unwrap_err();
            let want = RcError::WrongSource {
                step,
                lane: 0,
                element: step,
                source,
                reg: 1,
                held: Some(held),
                holder,
            };
            assert_eq!(e, want, "{e:?}");
        }
        // A slot off by one.
        let mut slot = good.to_vec();
        slot[2].slot = 3;
        assert!(matches!(
            rc.check_schedule(&slot),
            Err(RcError::WrongSource { step: 2, .. })
        ));
        let e = rc.check_schedule(&far).unwrap_err();
        assert_eq!(
            e.to_string(),
            "step 9: lane 0 needs warp input 9 (held by lane 2 in rc[1]) but reads lane 3 rc[1], which holds input 13"
        );
        let e = rc.check_schedule(&good[..9]).unwrap_err();
        assert_eq!(
            e,
            RcError::StepCount {
                expected: 10,
                got: 9
            }
        );
        // Lanes past the halo load no row-1 register: reading one is refused, not served by garbage.
        assert_eq!(rc.element(2, 4), None);
        assert_eq!(rc.element(1, 7), Some(135));
        let never = RcError::WrongSource {
            step: 1,
            lane: 2,
            element: 3,
            source: 4,
            reg: 5,
            held: None,
            holder: (0, 5),
        };
        assert!(
            never.to_string().ends_with("which that lane never loads"),
            "{never}"
        );
    }

    #[test]
    fn shapes_are_validated() {
        assert_eq!(RegisterCache::try_new(3, 1), Err(RcError::PerLane(3)));
        assert_eq!(RegisterCache::try_new(0, 1), Err(RcError::PerLane(0)));
        assert_eq!(RegisterCache::try_new(32, 1), Err(RcError::PerLane(32)));
        assert_eq!(
            RegisterCache::try_new(1, 17),
            Err(RcError::Radius {
                radius: 17,
                per_lane: 1
            })
        );
        assert!(RegisterCache::try_new(1, 0).is_err());
        assert!(RegisterCache::try_new(1, 16).is_ok());
        assert!(RegisterCache::try_new(8, 128).is_ok());
        assert_eq!(
            RegisterCache::try_new(1, 17).unwrap_err().to_string(),
            "radius 17 does not fit a register cache with 1 outputs per lane (need 1 <= k and 2k <= 32)"
        );
    }

    #[test]
    fn cuda_struct_tables_are_the_schedule() {
        let rc = RegisterCache::new(2, 3);
        let text = rc.cuda_struct("R");
        let switch = |name: &str, f: &dyn Fn(Step) -> u32| {
            let cases: Vec<String> = (0..rc.steps())
                .map(|t| format!("case {t}: return {}u;", f(rc.step(t))))
                .collect();
            format!(
                "{name}(uint32_t t) {{ switch (t) {{ {} default: return 0u; }} }}",
                cases.join(" ")
            )
        };
        assert!(text.contains(&switch("delta", &|s| s.delta)), "{text}");
        assert!(text.contains(&switch("slot", &|s| s.slot)), "{text}");
        assert!(text.contains("case 7: return 3u; default"), "{text}"); // step 7 = delta 3, slot 1
        assert!(text.contains("per_lane = 2u, radius = 3u;"));
        assert!(text.contains("registers = 4u, halo_lanes = 3u, steps = 8u;"));
    }
}
