// Article C's lock claims with the JVM's own primitives, the same cases as the lab's Rust
// `locks` experiment: synchronized, ReentrantLock (barging and fair), StampedLock optimistic
// reads, ReentrantReadWriteLock, AtomicLong, LongAdder and ConcurrentHashMap.computeIfAbsent.
// Standard library only; `contention run locks` compiles it once with javac and runs it.
// Prints one CSV row per trial (header first) on stdout; a failed check exits non-zero.
//
// Timing model: as the Rust side's. A trial starts its threads, they meet at a gate, each
// reads System.nanoTime after the gate and after its work; elapsed runs from the earliest
// start to the latest finish. Each cell warms up first (it runs for --warmup-ms, so C2 has
// compiled the loop and the operation before anything is timed), then its work is sized so
// a trial takes about --trial-ms, then trials run in rounds over all cells (interleaved).
// A trial still running at TRIAL_CAP times --trial-ms stops there, counting the operations
// done: a fair lock sized in its fast phase can fall into a convoy (a thread wake-up per
// hand-off, 100x slower) and would otherwise run for seconds. --budget-ms is checked before
// every trial after the first round: a trial starts only where its cell's last trial still
// fits what is left. A lock-across-wait trial is cut where it ends (in the first round, at
// its share of what is left), as the Rust run does.
//
// Guards against the JIT (the `guard` column says which a row used):
// - dontinline: the runner passes -XX:CompileCommand=dontinline for every `op*` method of
//   these classes, so each operation is one call the JIT cannot merge with the next one:
//   no lock coarsening across iterations (which made a naive uncontended synchronized loop
//   5.6 ns instead of 19-20 ns with -XX:-EliminateLocks) and no hoisting of an optimistic
//   read out of its loop (0.08 ns). A call costs about 1-2 ns, inside every figure alike.
// - escaped state: every lock and field lives in an object published through a static
//   field before the threads start, so escape analysis cannot prove a lock thread-local
//   (lock elision) nor a field constant.
// - black hole: every read's value is checked and summed, and the sum is written to a
//   volatile field at the end; every counter is verified after the trial.
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;

public final class Locks {
    static final String HEADER = "case,primitive,threads,read_share,trial,ops,reads,elapsed_ns,ns_per_op,"
            + "ops_per_sec,min_share,max_share,blocked_share,remote_calls,guard,java_version,verified";
    static final String GUARD = "dontinline op + escaped state + black hole";
    static final String WAIT_GUARD = "escaped map + black hole (the remote call dwarfs a call)";
    /** The black hole: sums of every value read end here. */
    static volatile long sink;
    /** Published state: what the current trial's threads share. */
    static volatile Object published;

    // ---- settings ----
    static List<String> cases = List.of("uncontended", "contended", "fair-vs-barging", "read-mostly", "lock-across-wait");
    static List<Integer> threads = List.of(1, 2);
    static List<Double> readShares = List.of(1.0, 0.99, 0.9);
    static int waitThreads = 8, trials = 5;
    static double waitMs = 1.0;
    static long keys = 200, requestsPerThread = 30;
    static long trialNs = 12_000_000L, warmupNs = 100_000_000L, budgetNs = Long.MAX_VALUE;
    /** When the run started (System.nanoTime): the budget counts from here. */
    static long started;
    /** A trial stops at this many times --trial-ms; the clock is read every CHECK_EVERY ops. */
    static final long TRIAL_CAP = 5, CHECK_EVERY = 1024;

    // ---- the shared state of each kind of cell ----

    /** A counter some lock guards; `op` takes one acquisition of `total`. */
    abstract static class HandOff {
        long count;
        abstract boolean op(long total);
        /** The count after `done` acquisitions and `refusals` ops that found the total reached. */
        long expected(long done, long refusals) { return done; }
        long count() { return count; }
    }

    static final class Synchronized extends HandOff {
        boolean op(long total) {
            synchronized (this) {
                if (count >= total) return false;
                count++;
                return true;
            }
        }
        synchronized long count() { return count; }
    }

    static final class Reentrant extends HandOff {
        final ReentrantLock lock;
        Reentrant(boolean fair) { lock = new ReentrantLock(fair); }
        boolean op(long total) {
            lock.lock();
            try {
                if (count >= total) return false;
                count++;
                return true;
            } finally {
                lock.unlock();
            }
        }
        long count() { lock.lock(); try { return count; } finally { lock.unlock(); } }
    }

    /** One getAndIncrement per acquisition; each thread stops at the first past the total. */
    static final class Atomic extends HandOff {
        final AtomicLong value = new AtomicLong();
        boolean op(long total) { return value.getAndIncrement() < total; }
        long count() { return value.get(); }
        long expected(long done, long refusals) { return done + refusals; }
    }

    /** Striped cells: a thread adds its share; sum() is read after the trial. */
    static final class Adder extends HandOff {
        final LongAdder value = new LongAdder();
        boolean op(long total) { value.increment(); return true; }
        long count() { return value.sum(); }
    }

    /** A version and two fields derived from it: a read mixing two writes is caught. */
    abstract static class Guarded {
        static final long SCALE = 0x9e3779b97f4a7c15L, FLIP = 0xa5a5a5a5a5a5a5a5L;
        long version, scaled, flipped = FLIP;
        /** Returns the version read, or -1 when the fields were torn. */
        abstract long opRead();
        abstract void opWrite();
        static long check(long v, long s, long f) { return (s == v * SCALE && f == (v ^ FLIP)) ? v : -1; }
        void next() { long v = version + 1; version = v; scaled = v * SCALE; flipped = v ^ FLIP; }
    }

    static final class SyncGuarded extends Guarded {
        synchronized long opRead() { return check(version, scaled, flipped); }
        synchronized void opWrite() { next(); }
    }

    static final class ReadWriteGuarded extends Guarded {
        final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        long opRead() {
            lock.readLock().lock();
            try { return check(version, scaled, flipped); } finally { lock.readLock().unlock(); }
        }
        void opWrite() {
            lock.writeLock().lock();
            try { next(); } finally { lock.writeLock().unlock(); }
        }
    }

    static final class StampedGuarded extends Guarded {
        final StampedLock lock = new StampedLock();
        /** Optimistic first (the reader writes nothing shared); a read a writer came between
         *  is retried, and after four tries taken under the read lock, as the JDK's own
         *  example does. */
        long opRead() {
            for (int attempt = 0; attempt < 4; attempt++) {
                long stamp = lock.tryOptimisticRead();
                long v = version, s = scaled, f = flipped;
                if (stamp != 0 && lock.validate(stamp)) return check(v, s, f);
            }
            long stamp = lock.readLock();
            try { return check(version, scaled, flipped); } finally { lock.unlockRead(stamp); }
        }
        void opWrite() {
            long stamp = lock.writeLock();
            try { next(); } finally { lock.unlockWrite(stamp); }
        }
    }

    // ---- cells ----

    record Cell(String kase, String primitive, int threads, double readShare) {
        String label() { return kase + " " + primitive + ", " + threads + " threads, " + readShare + " reads"; }
    }

    /** What one worker did. */
    static final class Tally {
        long ops, reads, writes, blockedNs, remoteCalls, start, end, checksum, refusals;
        /** Stopped at the trial's cap (TRIAL_CAP) before its work was done. */
        boolean torn, cut;
        final List<Long> keysAsked = new ArrayList<>();
    }

    static List<Cell> cells() {
        List<Cell> cells = new ArrayList<>();
        List<Integer> several = threads.stream().filter(t -> t >= 2).sorted().distinct().toList();
        for (String kase : cases) {
            switch (kase) {
                case "uncontended" -> {
                    for (String p : List.of("synchronized", "reentrant-lock", "reentrant-read-write-lock", "stamped-optimistic", "atomic-long"))
                        cells.add(new Cell(kase, p, 1, p.contains("read") || p.startsWith("stamped") ? 1.0 : 0.0));
                }
                case "contended" -> {
                    for (int t : several)
                        for (String p : List.of("synchronized", "reentrant-lock", "atomic-long", "long-adder")) cells.add(new Cell(kase, p, t, 0.0));
                }
                case "fair-vs-barging" -> {
                    List<Integer> ends = several.isEmpty() ? List.of() : List.of(several.get(0), several.get(several.size() - 1));
                    for (int t : ends.stream().distinct().toList())
                        for (String p : List.of("synchronized", "reentrant-lock", "reentrant-lock-fair")) cells.add(new Cell(kase, p, t, 0.0));
                }
                case "read-mostly" -> {
                    for (double share : readShares)
                        for (int t : threads.stream().sorted().distinct().toList())
                            for (String p : List.of("reentrant-read-write-lock", "stamped-optimistic", "synchronized")) cells.add(new Cell(kase, p, t, share));
                }
                case "lock-across-wait" -> {
                    for (String p : List.of("compute-if-absent", "compute-outside")) cells.add(new Cell(kase, p, waitThreads, 0.0));
                }
                default -> throw new IllegalArgumentException("unknown case " + kase);
            }
        }
        return cells;
    }

    static boolean readsOnly(Cell cell) {
        return cell.kase.equals("read-mostly") || (cell.kase.equals("uncontended") && cell.readShare == 1.0);
    }

    static HandOff handOff(String primitive) {
        return switch (primitive) {
            case "synchronized" -> new Synchronized();
            case "reentrant-lock" -> new Reentrant(false);
            case "reentrant-lock-fair" -> new Reentrant(true);
            case "atomic-long" -> new Atomic();
            case "long-adder" -> new Adder();
            default -> throw new IllegalArgumentException(primitive);
        };
    }

    static Guarded guarded(String primitive) {
        return switch (primitive) {
            case "synchronized" -> new SyncGuarded();
            case "reentrant-read-write-lock" -> new ReadWriteGuarded();
            case "stamped-optimistic" -> new StampedGuarded();
            default -> throw new IllegalArgumentException(primitive);
        };
    }

    // ---- running a team ----

    interface Work { void run(int worker, Tally tally) throws Exception; }

    /** Runs `work` on `n` threads released together; returns their tallies. */
    static Tally[] team(int n, Work work) throws Exception {
        Tally[] tallies = new Tally[n];
        Thread[] workers = new Thread[n];
        java.util.concurrent.atomic.AtomicInteger arrived = new java.util.concurrent.atomic.AtomicInteger();
        Exception[] failure = new Exception[1];
        for (int i = 0; i < n; i++) {
            final int worker = i;
            tallies[i] = new Tally();
            workers[i] = new Thread(() -> {
                arrived.incrementAndGet();
                while (arrived.get() < n) Thread.onSpinWait();
                Tally tally = tallies[worker];
                tally.start = System.nanoTime();
                try { work.run(worker, tally); } catch (Exception e) { synchronized (failure) { failure[0] = e; } }
                tally.end = System.nanoTime();
            });
        }
        for (Thread t : workers) t.start();
        for (Thread t : workers) t.join();
        if (failure[0] != null) throw failure[0];
        return tallies;
    }

    /** One trial of `cell` with `work` units: acquisitions in all, or operations per thread. */
    static Tally[] trial(Cell cell, long work, int trialIndex) throws Exception {
        if (cell.kase.equals("lock-across-wait")) return WaitCase.trial(cell, trialIndex, Math.round(waitMs * 1e6));
        if (readsOnly(cell)) return readMostly(cell, work);
        return handOffs(cell, work);
    }

    static Tally[] handOffs(Cell cell, long total) throws Exception {
        HandOff lock = handOff(cell.primitive);
        published = lock;
        boolean adder = lock instanceof Adder;
        long share = total / cell.threads;
        long goal = adder ? share * cell.threads : total;
        Tally[] tallies = team(cell.threads, (worker, tally) -> {
            HandOff shared = (HandOff) published;
            long mine = 0, cap = capOf(tally);
            if (adder) {
                while (mine < share && !(tally.cut = overCap(mine, cap))) { shared.op(goal); mine++; }
            } else {
                while (!(tally.cut = overCap(mine, cap))) {
                    if (!shared.op(goal)) { tally.refusals = 1; break; }
                    mine++;
                }
            }
            tally.ops = mine;
        });
        long ops = 0, refusals = 0;
        boolean cut = false;
        for (Tally t : tallies) { ops += t.ops; refusals += t.refusals; cut |= t.cut; }
        if (!cut) verify(cell, "acquisitions", goal, ops);
        verify(cell, "the guarded count", lock.expected(ops, refusals), lock.count());
        return tallies;
    }

    static Tally[] readMostly(Cell cell, long opsPerThread) throws Exception {
        Guarded state = guarded(cell.primitive);
        published = state;
        long writePpm = Math.round((1.0 - cell.readShare) * 1_000_000);
        Tally[] tallies = team(cell.threads, (worker, tally) -> {
            Guarded shared = (Guarded) published;
            long credit = 0, sum = 0, cap = capOf(tally);
            for (long i = 0; i < opsPerThread; i++) {
                if (tally.cut = overCap(i, cap)) break;
                credit += writePpm;
                if (credit >= 1_000_000) { credit -= 1_000_000; shared.opWrite(); tally.writes++; continue; }
                long version = shared.opRead();
                if (version < 0) { tally.torn = true; break; }
                sum += version;
                tally.reads++;
            }
            tally.ops = tally.reads + tally.writes;
            tally.checksum = sum;
        });
        long writes = 0, ops = 0, sum = 0;
        boolean cut = false;
        for (Tally t : tallies) {
            if (t.torn) throw new IllegalStateException(cell.label() + ": a torn read escaped");
            writes += t.writes; ops += t.ops; sum += t.checksum; cut |= t.cut;
        }
        sink = sum;
        if (!cut) verify(cell, "operations", opsPerThread * cell.threads, ops);
        verify(cell, "version after the writes", writes, state.version);
        return tallies;
    }

    /** When a trial whose thread started at `tally.start` stops: TRIAL_CAP x --trial-ms. */
    static long capOf(Tally tally) {
        return tally.start + TRIAL_CAP * trialNs;
    }

    /** Past the cap, reading the clock only every CHECK_EVERY ops (a read costs ~20 ns). */
    static boolean overCap(long done, long cap) {
        return done % CHECK_EVERY == 0 && done > 0 && System.nanoTime() - cap > 0;
    }

    static void verify(Cell cell, String what, long expected, long actual) {
        if (expected != actual)
            throw new IllegalStateException(cell.label() + ": " + what + ": expected " + expected + ", got " + actual);
    }

    // ---- the lock across a remote call's wait ----

    static final class WaitCase {
        static long splitMix(long[] state) {
            long z = (state[0] += 0x9e3779b97f4a7c15L);
            z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
            z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
            return z ^ (z >>> 31);
        }
        static long skewedKey(long random, long keys) {
            double uniform = (random >>> 11) / (double) (1L << 53);
            return Math.min((long) (keys * (uniform * uniform * uniform)), keys - 1);
        }
        static long valueOf(long key) { return splitMix(new long[] {key ^ 0x5bd1e995L}); }
        /** The remote call: its latency (parked, not spinning), then its answer. */
        static long remote(long key, long waitNanos) {
            long deadline = System.nanoTime() + waitNanos;
            for (long left = waitNanos; left > 0; left = deadline - System.nanoTime()) LockSupport.parkNanos(left);
            return valueOf(key);
        }

        /** Set once the team has answered a request: the budget's cut applies from then on. */
        static final AtomicBoolean answered = new AtomicBoolean();

        /** Where the trial under way is cut (System.nanoTime), set before each trial. */
        static volatile long stopAt;

        /** Past the cut once a request was answered (as the Rust case cuts): a request is not
         *  started, and one that waited for its bin gives up rather than call inside it. */
        static boolean cut() {
            return answered.get() && System.nanoTime() - stopAt > 0;
        }

        static Tally[] trial(Cell cell, int trialIndex, long waitNanos) throws Exception {
            answered.set(false);
            ConcurrentHashMap<Long, Long> map = new ConcurrentHashMap<>();
            published = map;
            boolean inside = cell.primitive.equals("compute-if-absent");
            Tally[] tallies = team(cell.threads, (worker, tally) -> {
                @SuppressWarnings("unchecked") ConcurrentHashMap<Long, Long> shared = (ConcurrentHashMap<Long, Long>) published;
                long[] seed = {((long) trialIndex << 32) | worker};
                long sum = 0;
                long answeredHere = 0;
                for (long i = 0; i < requestsPerThread; i++) {
                    long key = skewedKey(splitMix(seed), keys);
                    Long value = inside ? inside(shared, key, waitNanos, tally) : outside(shared, key, waitNanos, tally);
                    if (value == null) break;
                    if (answeredHere++ == 0) answered.set(true);
                    tally.keysAsked.add(key);
                    sum += value;
                }
                tally.ops = answeredHere;
                tally.checksum = sum;
            });
            verifyMap(cell, map, tallies, inside);
            return tallies;
        }

        static Long inside(ConcurrentHashMap<Long, Long> map, long key, long waitNanos, Tally tally) {
            if (cut()) return null;
            long asked = System.nanoTime();
            long[] call = {0};
            // A mapping function's null inserts nothing: the request gives up.
            Long value = map.computeIfAbsent(key, k -> {
                if (cut()) return null;
                long calling = System.nanoTime();
                long v = remote(k, waitNanos);
                call[0] = System.nanoTime() - calling;
                return v;
            });
            if (value == null) return null;
            tally.blockedNs += Math.max(0, System.nanoTime() - asked - call[0]);
            if (call[0] > 0) { tally.remoteCalls++; tally.writes++; } else { tally.reads++; }
            return value;
        }

        static Long outside(ConcurrentHashMap<Long, Long> map, long key, long waitNanos, Tally tally) {
            if (cut()) return null;
            long asked = System.nanoTime();
            Long found = map.get(key);
            long inMap = System.nanoTime() - asked;
            long value;
            if (found != null) { tally.reads++; value = found; }
            else {
                long v = remote(key, waitNanos);
                long inserting = System.nanoTime();
                Long previous = map.putIfAbsent(key, v);
                inMap += System.nanoTime() - inserting;
                tally.remoteCalls++; tally.writes++;
                value = previous != null ? previous : v;
            }
            tally.blockedNs += inMap;
            return value;
        }

        static void verifyMap(Cell cell, ConcurrentHashMap<Long, Long> map, Tally[] tallies, boolean inside) {
            Set<Long> asked = new HashSet<>();
            long calls = 0, sum = 0;
            for (Tally t : tallies) { asked.addAll(t.keysAsked); calls += t.remoteCalls; sum += t.checksum; }
            sink = sum;
            verify(cell, "keys in the map", asked.size(), map.size());
            for (long key : asked) verify(cell, "the value of key " + key, valueOf(key), map.getOrDefault(key, -1L));
            if (inside) verify(cell, "remote calls", asked.size(), calls);
            else if (calls < asked.size()) verify(cell, "remote calls (at least)", asked.size(), calls);
        }
    }

    // ---- sizing, rounds, rows ----

    static long elapsed(Tally[] tallies) {
        long start = Long.MAX_VALUE, end = Long.MIN_VALUE;
        for (Tally t : tallies) { start = Math.min(start, t.start); end = Math.max(end, t.end); }
        return Math.max(1, end - start);
    }

    /** Warms the cell up for --warmup-ms, then sizes its work to about --trial-ms. */
    static long prepare(Cell cell) throws Exception {
        // The map's code warmed without the remote call's wait: the same paths for the JIT,
        // without a trial of seconds (--wait-ms 1000) before the budget's first trial.
        if (cell.kase.equals("lock-across-wait")) { WaitCase.trial(cell, 0, 0); return requestsPerThread; }
        long work = 1_000, warmEnd = System.nanoTime() + warmupNs;
        while (System.nanoTime() < warmEnd) {
            long took = elapsed(trial(cell, work, 0));
            if (took < trialNs / 4) work = Math.min(work * 2, 1L << 40);
        }
        while (true) {
            Tally[] tallies = trial(cell, work, 0);
            long took = elapsed(tallies), done = done(cell, tallies);
            if (took >= trialNs / 4 || work >= (1L << 40)) return Math.max(1, (long) Math.ceil(done * (double) trialNs / took));
            work = Math.min(work * Math.max(2, (long) Math.ceil(trialNs * 0.3125 / took)), 1L << 40);
        }
    }

    /** The work a trial did, in the units `trial` is asked for: acquisitions in all, or
     *  operations per thread (less than asked when the trial was cut at its cap). */
    static long done(Cell cell, Tally[] tallies) {
        long ops = 0;
        for (Tally t : tallies) ops += t.ops;
        return readsOnly(cell) ? ops / cell.threads : ops;
    }

    static String row(Cell cell, int trial, Tally[] tallies) {
        long elapsed = elapsed(tallies), ops = 0, reads = 0, blocked = 0, calls = 0, min = Long.MAX_VALUE, max = 0;
        for (Tally t : tallies) {
            ops += t.ops; reads += t.reads; blocked += t.blockedNs; calls += t.remoteCalls;
            min = Math.min(min, t.ops); max = Math.max(max, t.ops);
        }
        double blockedShare = Math.min(1.0, blocked / ((double) elapsed * cell.threads));
        String version = System.getProperty("java.vm.name") + " " + System.getProperty("java.version");
        String guard = cell.kase.equals("lock-across-wait") ? WAIT_GUARD : GUARD;
        return String.join(",", cell.kase, cell.primitive, Integer.toString(cell.threads), Double.toString(cell.readShare),
                Integer.toString(trial), Long.toString(ops), Long.toString(reads), Long.toString(elapsed),
                Double.toString(elapsed / (double) Math.max(1, ops)), Double.toString(ops / (elapsed / 1e9)),
                Double.toString(min / (double) Math.max(1, ops)), Double.toString(max / (double) Math.max(1, ops)),
                Double.toString(blockedShare), Long.toString(calls), guard, version.replace(',', ' '), "true");
    }

    static void parse(String[] args) {
        for (int i = 0; i + 1 < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--cases" -> cases = List.of(value.split(","));
                case "--threads" -> threads = java.util.Arrays.stream(value.split(",")).map(Integer::parseInt).toList();
                case "--read-shares" -> readShares = java.util.Arrays.stream(value.split(",")).map(Double::parseDouble).toList();
                case "--wait-threads" -> waitThreads = Integer.parseInt(value);
                case "--wait-ms" -> waitMs = Double.parseDouble(value);
                case "--keys" -> keys = Long.parseLong(value);
                case "--requests-per-thread" -> requestsPerThread = Long.parseLong(value);
                case "--trial-ms" -> trialNs = Math.round(Double.parseDouble(value) * 1e6);
                case "--trials" -> trials = Integer.parseInt(value);
                case "--warmup-ms" -> warmupNs = Math.round(Double.parseDouble(value) * 1e6);
                case "--budget-ms" -> budgetNs = Math.round(Double.parseDouble(value) * 1e6);
                default -> throw new IllegalArgumentException("unknown flag " + args[i]);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        parse(args);
        started = System.nanoTime();
        WaitCase.stopAt = started + Long.MAX_VALUE / 2; // no cut while the cells warm up
        List<Cell> cells = cells();
        long[] work = new long[cells.size()];
        for (int i = 0; i < cells.size(); i++) work[i] = prepare(cells.get(i));
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        // What each cell's trial is expected to take: --trial-ms until one has run, then its last.
        long[] expected = new long[cells.size()];
        java.util.Arrays.fill(expected, trialNs);
        rounds:
        for (int round = 0; round < trials; round++) {
            for (int i = 0; i < cells.size(); i++) {
                long now = System.nanoTime(), left = budgetNs - (now - started);
                // A trial starts only where it fits what is left (every cell's first does, so
                // each cell has a row); the budget ends a round, not a trial midway.
                if (round > 0 && left < expected[i]) break rounds;
                // As the Rust run does: in the first round a trial takes its share of what is
                // left among the cells not measured yet.
                WaitCase.stopAt = now + Math.max(0, left) / (round == 0 ? cells.size() - i : 1);
                Tally[] tallies = trial(cells.get(i), work[i], round);
                expected[i] = elapsed(tallies);
                out.append(row(cells.get(i), round, tallies)).append('\n');
            }
        }
        System.out.print(out);
        System.out.flush();
    }
}
