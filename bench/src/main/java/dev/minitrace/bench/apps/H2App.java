package dev.minitrace.bench.apps;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The database app of {@code bench/run apps}: H2 in memory, a TPC-B-like workload (update an
 * account, a teller and a branch, read the account back, insert a history row; one transaction
 * each) run by {@code THREADS} threads with {@code TX} transactions each, plus every 50th
 * transaction a report query (balance per branch) over the whole accounts table.
 *
 * <p>The final state does not depend on how the threads interleave: each thread draws its
 * transactions from its own seeded generator, and a transaction only adds to balances, which
 * commutes. A transaction that fails (a lock wait timeout under heavy tracing) is rolled back and
 * retried with the same values. Checksum: the balance totals, a weighted sum of every account,
 * the history row count and deltas.
 *
 * <p>Usage: {@code H2App THREADS TX ACCOUNTS}. Prints {@code RESULT <checksum> <transactions>}.
 */
public final class H2App {
    private static final int TELLERS_PER_BRANCH = 10;
    private static final int ACCOUNTS_PER_BRANCH = 10_000;
    private static final String URL = "jdbc:h2:mem:bench;LOCK_TIMEOUT=60000;DB_CLOSE_DELAY=-1";

    private H2App() {
    }

    /** Entry point of the child JVM. */
    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        int tx = Integer.parseInt(args[1]);
        int accounts = Integer.parseInt(args[2]);
        int branches = Math.max(1, accounts / ACCOUNTS_PER_BRANCH);
        int tellers = branches * TELLERS_PER_BRANCH;
        try (Connection c = DriverManager.getConnection(URL)) {
            load(c, branches, tellers, accounts);
            List<Thread> workers = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                Thread w = new Thread(() -> {
                    try {
                        run(id, tx, branches, tellers, accounts);
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                }, "h2-worker-" + t);
                workers.add(w);
                w.start();
            }
            for (Thread w : workers) {
                w.join();
            }
            if (!failures.isEmpty()) {
                throw new IllegalStateException("a worker failed", failures.get(0));
            }
            Checksums sum = new Checksums();
            try (Statement s = c.createStatement()) {
                for (String q : List.of("SELECT SUM(abalance), SUM(abalance * aid), COUNT(*) FROM accounts",
                        "SELECT SUM(tbalance), SUM(tbalance * tid) FROM tellers",
                        "SELECT SUM(bbalance), SUM(bbalance * bid) FROM branches",
                        "SELECT COUNT(*), SUM(delta), SUM(delta * aid) FROM history")) {
                    try (ResultSet rs = s.executeQuery(q)) {
                        rs.next();
                        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                            sum.add(rs.getString(i));
                        }
                    }
                }
            }
            System.out.println("RESULT " + sum.hex() + " " + (long) threads * tx);
        }
    }

    private static void load(Connection c, int branches, int tellers, int accounts) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE branches (bid INT PRIMARY KEY, bbalance BIGINT NOT NULL, filler VARCHAR(88))");
            s.execute("CREATE TABLE tellers (tid INT PRIMARY KEY, bid INT NOT NULL, tbalance BIGINT NOT NULL, filler VARCHAR(84))");
            s.execute("CREATE TABLE accounts (aid INT PRIMARY KEY, bid INT NOT NULL, abalance BIGINT NOT NULL, filler VARCHAR(84))");
            s.execute("CREATE TABLE history (hid BIGINT AUTO_INCREMENT PRIMARY KEY, tid INT, bid INT, aid INT, delta BIGINT,"
                    + " seq BIGINT, filler VARCHAR(22))");
        }
        c.setAutoCommit(false);
        insert(c, "INSERT INTO branches VALUES (?, 0, 'branch')", branches, 0);
        insert(c, "INSERT INTO tellers VALUES (?, ?, 0, 'teller')", tellers, TELLERS_PER_BRANCH);
        insert(c, "INSERT INTO accounts VALUES (?, ?, 0, 'account')", accounts, ACCOUNTS_PER_BRANCH);
        c.commit();
        c.setAutoCommit(true);
    }

    private static void insert(Connection c, String sql, int rows, int perBranch) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            for (int i = 0; i < rows; i++) {
                p.setInt(1, i);
                if (perBranch > 0) {
                    p.setInt(2, i / perBranch);
                }
                p.addBatch();
                if (i % 1000 == 999) {
                    p.executeBatch();
                }
            }
            p.executeBatch();
        }
    }

    private static void run(int thread, int tx, int branches, int tellers, int accounts) throws SQLException {
        SplittableRandom random = new SplittableRandom(1_000_003L * (thread + 1));
        try (Connection c = DriverManager.getConnection(URL);
                PreparedStatement account = c.prepareStatement("UPDATE accounts SET abalance = abalance + ? WHERE aid = ?");
                PreparedStatement read = c.prepareStatement("SELECT abalance FROM accounts WHERE aid = ?");
                PreparedStatement teller = c.prepareStatement("UPDATE tellers SET tbalance = tbalance + ? WHERE tid = ?");
                PreparedStatement branch = c.prepareStatement("UPDATE branches SET bbalance = bbalance + ? WHERE bid = ?");
                PreparedStatement history = c.prepareStatement("INSERT INTO history (tid, bid, aid, delta, seq, filler) VALUES (?, ?, ?, ?, ?, 'h')");
                PreparedStatement report = c.prepareStatement("SELECT bid, SUM(abalance), COUNT(*) FROM accounts GROUP BY bid ORDER BY bid")) {
            c.setAutoCommit(false);
            for (int i = 0; i < tx; i++) {
                int aid = random.nextInt(accounts);
                int tid = random.nextInt(tellers);
                int bid = tid / TELLERS_PER_BRANCH;
                long delta = random.nextInt(-99_999, 100_000);
                for (int attempt = 1; ; attempt++) {
                    try {
                        account.setLong(1, delta);
                        account.setInt(2, aid);
                        account.executeUpdate();
                        read.setInt(1, aid);
                        try (ResultSet rs = read.executeQuery()) {
                            rs.next();
                        }
                        teller.setLong(1, delta);
                        teller.setInt(2, tid);
                        teller.executeUpdate();
                        branch.setLong(1, delta);
                        branch.setInt(2, bid);
                        branch.executeUpdate();
                        history.setInt(1, tid);
                        history.setInt(2, bid);
                        history.setInt(3, aid);
                        history.setLong(4, delta);
                        history.setLong(5, (long) thread * tx + i);
                        history.executeUpdate();
                        c.commit();
                        break;
                    } catch (SQLException e) {
                        c.rollback();
                        if (attempt == 10) {
                            throw e;
                        }
                    }
                }
                if (i % 50 == 49) {
                    try (ResultSet rs = report.executeQuery()) {
                        while (rs.next()) {
                            rs.getLong(2);
                        }
                    }
                    c.commit();
                }
            }
        }
    }
}
