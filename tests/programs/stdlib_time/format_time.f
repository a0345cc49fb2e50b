// formatTime(ms, fmt) is strftime in local time, or null when the format
// produces nothing (§16.5). The instants below print the same in every
// time zone: mid-month for the year and month, and seconds.
int july = 1721044800000
log(formatTime(july, '%Y-%m'))
log(formatTime(july, '%S'))
log(formatTime(july + 7000, 'second %S of the minute'))
log(formatTime(july, 'no conversions'))
log(formatTime(july, '100%%'))
log(formatTime(0, '%Y') == '1970' || formatTime(0, '%Y') == '1969')

// Nothing produced: null.
log(formatTime(july, '') == null)
// A format the formatter rejects: null.
log(formatTime(july, '%Q') == null)
log(formatTime(july, 'trailing %') == null)
// A null format: null.
text nothing = null
log(formatTime(july, nothing) == null)
// An instant out of range: null.
log(formatTime(9223372036854775807, '%Y') == null)
