package dev.minitrace.converter.jfr.fast;

import dev.minitrace.converter.util.LongIntMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The type system of one chunk, read from its metadata event. Type ids are only valid within
 * the chunk, so a new {@code Metadata} is read per chunk (it is small next to the events).
 */
final class Metadata {
    private final Map<String, JfrType> byName = new HashMap<>();
    private final LongIntMap indexById;
    private final JfrType[] types;

    private Metadata(List<JfrType> list) {
        types = list.toArray(new JfrType[0]);
        indexById = new LongIntMap(types.length);
        for (int i = 0; i < types.length; i++) {
            indexById.put(types[i].id, i);
            byName.put(types[i].name, types[i]);
        }
    }

    JfrType byId(long id) {
        int i = indexById.get(id);
        return i < 0 ? null : types[i];
    }

    JfrType byName(String name) {
        return byName.get(name);
    }

    JfrType[] types() {
        return types;
    }

    /** Reads the metadata event at {@code in.pos} (its size prefix first). */
    static Metadata read(ChunkInput in) throws JfrFormatException {
        int start = in.pos;
        long size = in.readInt(); // an int: 4 bytes when integers are not compressed
        if (size <= 0 || size > in.limit - start) {
            throw in.error(start, "Metadata event size " + size + " outside the chunk", null);
        }
        long typeId = in.readLong();
        if (typeId != 0) {
            throw in.error(start, "Expected the metadata event (type id 0) but found type id " + typeId, null);
        }
        in.readLong(); // start time
        in.readLong(); // duration
        in.readLong(); // metadata id
        int stringCount = in.readInt();
        in.require(stringCount, "Metadata string table");
        String[] strings = new String[stringCount];
        for (int i = 0; i < stringCount; i++) {
            int at = in.pos;
            byte encoding = in.readByte();
            if (encoding == ChunkInput.STRING_CONSTANT_POOL) {
                throw in.error("Metadata string " + i + " refers to a constant pool");
            }
            strings[i] = in.readStringBody(encoding, at);
        }
        Element root = readElement(in, strings, 0);
        if (in.pos > start + size) {
            throw in.error(start, "Metadata event overruns its declared size " + size, null);
        }
        return build(root, in);
    }

    /** A node of the metadata tree; only used while building the types. */
    private static final class Element {
        final String name;
        final List<String> attributes = new ArrayList<>(8);
        final List<Element> children = new ArrayList<>(0);

        Element(String name) {
            this.name = name;
        }

        String attribute(String key) {
            for (int i = 0; i < attributes.size(); i += 2) {
                if (attributes.get(i).equals(key)) {
                    return attributes.get(i + 1);
                }
            }
            return null;
        }
    }

    private static String string(ChunkInput in, String[] strings) throws JfrFormatException {
        int index = in.readInt();
        if (index < 0 || index >= strings.length) {
            throw in.error("Metadata string index " + index + " out of range 0.." + (strings.length - 1));
        }
        return strings[index];
    }

    private static Element readElement(ChunkInput in, String[] strings, int depth) throws JfrFormatException {
        if (depth > 64) {
            throw in.error("Metadata nested deeper than 64 levels");
        }
        Element e = new Element(string(in, strings));
        int attributeCount = in.readInt();
        in.require(attributeCount, "Metadata attribute count");
        for (int i = 0; i < attributeCount; i++) {
            e.attributes.add(string(in, strings));
            e.attributes.add(string(in, strings));
        }
        int childCount = in.readInt();
        in.require(childCount, "Metadata child count");
        for (int i = 0; i < childCount; i++) {
            e.children.add(readElement(in, strings, depth + 1));
        }
        return e;
    }

    private static long parseId(ChunkInput in, String value, String what) throws JfrFormatException {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw in.error(in.pos, "Metadata " + what + " '" + value + "' is not a number", e);
        }
    }

    private static Metadata build(Element root, ChunkInput in) throws JfrFormatException {
        Element metadata = null;
        for (Element child : root.children) {
            if (child.name.equals("metadata")) {
                metadata = child;
            }
        }
        if (metadata == null) {
            throw in.error("Metadata has no 'metadata' element");
        }
        List<JfrType> list = new ArrayList<>(metadata.children.size());
        List<Element> classElements = new ArrayList<>(metadata.children.size());
        for (Element c : metadata.children) {
            if (c.name.equals("class")) {
                String id = c.attribute("id");
                String name = c.attribute("name");
                if (id == null || name == null) {
                    throw in.error("Metadata class element without id or name");
                }
                list.add(new JfrType(parseId(in, id, "class id"), name, c.attribute("superType")));
                classElements.add(c);
            }
        }
        Metadata m = new Metadata(list);
        JfrType timestamp = m.byName("jdk.jfr.Timestamp");
        JfrType timespan = m.byName("jdk.jfr.Timespan");
        for (int t = 0; t < list.size(); t++) {
            JfrType type = list.get(t);
            List<JfrType.Field> fields = new ArrayList<>();
            for (Element f : classElements.get(t).children) {
                if (!f.name.equals("field")) {
                    continue;
                }
                if (f.attribute("name") == null || f.attribute("class") == null) {
                    throw in.error("Metadata field of " + type.name + " without a name or class");
                }
                String dimension = f.attribute("dimension");
                JfrType.Field field = new JfrType.Field(f.attribute("name"),
                        parseId(in, f.attribute("class"), "field class of " + type.name),
                        "true".equals(f.attribute("constantPool")),
                        dimension != null && !dimension.equals("0"));
                if (dimension != null && !dimension.equals("0") && !dimension.equals("1")) {
                    throw in.error("Field " + type.name + "." + field.name + " has unsupported dimension " + dimension);
                }
                field.type = m.byId(field.typeId);
                if (field.type == null) {
                    throw in.error("Field " + type.name + "." + field.name + " has unknown type id " + field.typeId);
                }
                for (Element a : f.children) {
                    if (a.name.equals("annotation") && "TICKS".equals(a.attribute("value"))) {
                        long annotationType = parseId(in, a.attribute("class"), "annotation class");
                        if (timestamp != null && annotationType == timestamp.id) {
                            field.ticks = JfrType.Field.TICKS_TIMESTAMP;
                        } else if (timespan != null && annotationType == timespan.id) {
                            field.ticks = JfrType.Field.TICKS_TIMESPAN;
                        }
                    }
                }
                fields.add(field);
            }
            type.fields = fields.toArray(new JfrType.Field[0]);
        }
        return m;
    }
}
