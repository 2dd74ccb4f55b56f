package dev.minitrace.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The filter setting that recordings combine. */
class FilterSettingTest {
    @Test
    void filterSettingCombinesTheUnionOfNonEmptyFilters() {
        FilterSetting s = new FilterSetting();
        assertEquals("", s.getValue());
        assertEquals("a.B;c.*;d::e", s.combine(Set.of("c.*;a.B", "", "d::e;a.B")));
        assertEquals("", s.combine(Set.of("", " ")));
    }
}
