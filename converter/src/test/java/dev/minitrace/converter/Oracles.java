package dev.minitrace.converter;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.events.EventNames;
import java.io.File;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.openjdk.jmc.common.IMCThread;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.IMemberAccessor;
import org.openjdk.jmc.flightrecorder.JfrAttributes;
import org.openjdk.jmc.flightrecorder.JfrLoaderToolkit;

/**
 * Independent counts of a recording's minitrace events, per record type and per thread name, as
 * {@code jdk.jfr.consumer.RecordingFile} and JMC's parser see them. Keys: {@code "TYPE"} and
 * {@code "TYPE@threadName"}.
 */
public final class Oracles {
    private Oracles() {
    }

    static int typeOf(String eventName) {
        return switch (eventName) {
            case EventNames.METHOD_ENTRY -> MtlogFormat.METHOD_ENTRY;
            case EventNames.METHOD_EXIT -> MtlogFormat.METHOD_EXIT;
            case EventNames.LOCK_ACQUIRE -> MtlogFormat.LOCK_ACQUIRE;
            case EventNames.LOCK_RELEASE -> MtlogFormat.LOCK_RELEASE;
            case EventNames.OBJECT_ALLOC -> MtlogFormat.OBJECT_ALLOC;
            default -> 0;
        };
    }

    /** Counts by RecordingFile. */
    public static Map<String, Long> recordingFile(Path file) throws Exception {
        Map<String, Long> counts = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            int type = typeOf(e.getEventType().getName());
            if (type != 0) {
                String name = MtlogFormat.typeName(type);
                counts.merge(name, 1L, Long::sum);
                counts.merge(name + "@" + (e.getThread() == null ? null : e.getThread().getJavaName()), 1L, Long::sum);
            }
        }
        return counts;
    }

    /** Counts by JMC's parser. */
    public static Map<String, Long> jmc(Path file) throws Exception {
        Map<String, Long> counts = new TreeMap<>();
        IItemCollection items = JfrLoaderToolkit.loadEvents(new File(file.toString()));
        for (IItemIterable it : items) {
            int type = typeOf(it.getType().getIdentifier());
            if (type == 0) {
                continue;
            }
            String name = MtlogFormat.typeName(type);
            IMemberAccessor<IMCThread, IItem> thread = JfrAttributes.EVENT_THREAD.getAccessor(it.getType());
            for (IItem item : it) {
                counts.merge(name, 1L, Long::sum);
                counts.merge(name + "@" + thread.getMember(item).getThreadName(), 1L, Long::sum);
            }
        }
        return counts;
    }
}
