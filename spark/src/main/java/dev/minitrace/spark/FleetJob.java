package dev.minitrace.spark;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * The fleet job: the questions of {@link FleetQuestion} over every exported trace under a root
 * folder. Submit it with {@code spark-submit}; nothing in it depends on where it runs (local
 * threads or a cluster), only the master and the paths do (docs/query.md).
 *
 * <p>Usage: {@code FleetJob ROOT [OUT]}: with OUT, each answer is written as Parquet to
 * {@code OUT/<question>/}; without, the first rows of each are printed.
 */
public final class FleetJob {
    private FleetJob() {
    }

    /** Entry point for spark-submit. */
    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: FleetJob ROOT [OUT]   (ROOT: a folder of exported traces; OUT: where to write the answers)");
            System.exit(2);
        }
        SparkSession spark = SparkSession.builder().appName("minitrace-fleet").getOrCreate();
        try {
            List<String> exports = FleetTables.register(spark, args[0]);
            System.out.println("minitrace fleet: " + spark.sql("SELECT count(*) FROM recording").first().getLong(0)
                    + " recordings in " + exports.size() + " export folder(s) under " + args[0]);
            for (FleetQuestion q : FleetQuestion.values()) {
                Dataset<Row> answer = answer(spark, q);
                if (args.length == 2) {
                    answer.write().mode(SaveMode.Overwrite).parquet(args[1] + "/" + q.fileName());
                } else {
                    System.out.println("== " + q.fileName());
                    answer.show(20, false);
                }
            }
        } finally {
            spark.stop();
        }
    }

    /** The answer to {@code q} over the registered views. */
    public static Dataset<Row> answer(SparkSession spark, FleetQuestion q) {
        return spark.sql(q.sql());
    }
}
