/** Reads the argument captures ({@code minitrace.MethodCapture}) of a recording for {@code mt summary}. */
package dev.minitrace.converter.capture;
