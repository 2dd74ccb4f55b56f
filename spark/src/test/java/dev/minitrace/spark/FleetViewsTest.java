package dev.minitrace.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.minitrace.query.TableViews;
import dev.minitrace.query.TraceTables;
import dev.minitrace.query.parquet.TableSchema;
import org.junit.jupiter.api.Test;

/**
 * The job's views of the tables are {@code mt query}'s: the SQL in its {@code views/} resources is
 * what the query module's {@link TableViews} makes (the job's jar holds no query module), and it
 * covers every table.
 */
class FleetViewsTest {
    @Test
    void everyTablesViewIsTheQueryModules() {
        assertEquals(TraceTables.ALL.stream().map(TableSchema::name).toList(), FleetTables.TABLES);
        for (TableSchema t : TraceTables.ALL) {
            assertEquals(TableViews.select(t, name -> FleetTables.FILES + name), FleetTables.view(t.name()),
                    "views/" + t.name() + ".sql (write it anew from TableViews.select)");
        }
    }
}
