import type { Catalog } from '../intl.ts';

/** English messages of imports; spread into en.ts. */
export const enImports = {
  'imports.title': 'Import sessions',
  'imports.intro':
    'Bring in the sessions you recorded with another logger: Voltas recognises the track, times the laps from the GPS and shows everything on the same screens as your own device.',
  'imports.formats':
    'GPX (1.0 and 1.1), RaceChrono CSV (v3), Racelogic VBO, AiM CSV, NMEA 0183, SpeedAngle .sa, TrackAddict CSV, lap.six + gps.six, or a .gz of any of them.',
  'imports.drop': 'Drag the files here',
  'imports.or': 'or',
  'imports.pick': 'Choose files',
  'imports.limit': 'Up to {mb} MB per file.',
  'imports.sending': 'Sending… {pct}%',
  'imports.processing': 'Timing the laps…',
  'imports.done': 'Imported',
  'imports.again': 'Already imported (nothing changed)',
  'imports.failed': 'Not imported',
  'imports.offline': 'Offline: importing needs the internet.',
  'imports.found': '{track} · {date}',
  'imports.lapsCount': '{count, plural, one {# lap timed from the GPS} other {# laps timed from the GPS}}',
  'imports.noLaps': 'No complete lap (the track was recognised, but the line never closes a lap).',
  'imports.bestLap': 'Best lap: {time}',
  'imports.loggerLaps':
    '{count, plural, one {# lap timed by the logger itself ({time})} other {# laps timed by the logger itself (best {time})}}',
  'imports.openLaps': 'See laps',
  'imports.openAnalytics': 'Analysis',
  'imports.empty': 'No file chosen yet.',
  'imports.deleteSession': 'Delete imported session',
  'imports.confirmDelete': 'Delete the imported session at {track} on {date}? Its imported files are deleted too.',
  'imports.deleted': 'Imported session deleted.',
  'imports.warnings.truncated': 'The file stops halfway (line {line}): what was complete was imported.',
  'imports.warnings.badLines': '{count, plural, one {# unreadable line skipped.} other {# unreadable lines skipped.}}',
  'imports.warnings.badChecksums':
    '{count, plural, one {# NMEA sentence with a bad checksum skipped.} other {# NMEA sentences with a bad checksum skipped.}}',
  'imports.warnings.backwards':
    '{count, plural, one {# point with a time going backwards skipped.} other {# points with a time going backwards skipped.}}',
  'imports.warnings.duplicates': '{count, plural, one {# repeated point skipped.} other {# repeated points skipped.}}',
  'imports.warnings.jumps':
    '{count, plural, one {# impossible position jump skipped.} other {# impossible position jumps skipped.}}',
  'imports.warnings.gaps':
    '{count, plural, one {# gap of over 5 s without signal.} other {# gaps of over 5 s without signal.}}',
  'imports.warnings.beyondLimit':
    '{count, plural, one {# point past the {max, number} a file may hold was left out.} other {# points past the {max, number} a file may hold were left out.}}',
  'imports.warnings.fileLineUnused':
    'The file’s finish line does not cross the racing line: the track’s line was used.',
  'imports.warnings.loggerLapsUnmatched':
    '{count, plural, one {# of the logger’s laps matches} other {# of the logger’s laps match}} no lap the GPS timed (they end elsewhere, or hold a stop): the GPS’s laps are shown there.',
  'imports.warnings.leanCalculated': 'The lean angle in this file was worked out by the app, not measured by a sensor.',
  'imports.warnings.sameRecording':
    'This file is the same recording as {file} (same times): the laps were not duplicated.',
  'imports.warnings.sameRecordingUnnamed':
    'This file is the same recording as another file (same times): the laps were not duplicated.',
  /** Why a file was refused, with its details. */
  'imports.refused.raceChronoHeader':
    'RaceChrono CSV without its column names, units and sources rows; nothing was saved.',
  'imports.refused.trackAddictColumns': 'TrackAddict CSV with more than {max} columns; nothing was saved.',
  'imports.refused.trackAddictNoDate':
    'TrackAddict CSV without the "UTC Time" column and without its original name (Log-YYYYMMDD-HHMMSS…), so the day is unknown; nothing was saved.',
  'imports.refused.trackAddictHeader':
    'TrackAddict CSV without its column names row ("Time", …, "Latitude", "Longitude"); nothing was saved.',
  'imports.refused.gpxLongRun':
    'The GPX runs over {max} characters without opening or closing a tag (line {line}): a text, comment or tag far too long for a GPX, which has a tag every few dozen characters. Nothing was saved.',
  'imports.refused.gpxNoPoints': "The GPX file has no track point ('<'trkpt>); nothing was saved.",
  'imports.refused.gpxTooFewFixes':
    "In {mb} MB of the GPX (up to line {line}) there are only {fixes} track points with a position and a time ('<'trkpt lat lon> with '<'time>); a recording holds thousands, and Voltas expects at least {min} in every {mb} MB. Nothing was saved.",
  'imports.refused.gpxAttributes':
    'A GPX tag (line {line}) has more than {max} attributes; a GPX element has only a few (such as lat and lon). Nothing was saved.',
  'imports.refused.gpxLongAttribute':
    'The attribute {name} (line {line}) is longer than {max} characters; in a GPX a value is short (such as lat="-23.701234"). Nothing was saved.',
  'imports.refused.nmeaNoDate': 'NMEA without $GPRMC/$GNRMC sentences: only they carry the date; nothing was saved.',
  'imports.refused.aimHeaderLines':
    'AiM CSV with more than {max} header lines before its column names row; nothing was saved.',
  'imports.refused.aimNoPosition': 'AiM CSV without the "GPS Latitude" and "GPS Longitude" columns; nothing was saved.',
  'imports.refused.aimNoDate': 'AiM CSV without a readable "Date" and "Time" in its header; nothing was saved.',
  'imports.refused.aimHeader': 'AiM CSV without its names and units rows; nothing was saved.',
  'imports.refused.speedAngleNoStart':
    'SpeedAngle file without the #D= line with the start of the recording; nothing was saved.',
  'imports.refused.speedAngleNoTrace': "SpeedAngle file without its '<'trace> section; nothing was saved.",
  'imports.refused.vboColumns': 'VBO without the time, lat and long columns; nothing was saved.',
  'imports.refused.vboNoDate':
    'The VBO lacks "File created on DD/MM/YYYY" in its first line, so the day is unknown; nothing was saved.',
  'imports.refused.vboNoData': 'VBO without a [data] section; nothing was saved.',
  'imports.refused.gpsSixNoDate':
    'A gps.six holds only the time of each point: put the date in the file name as ddmmyyyy (15112026_gps.six, or the folder Interlagos/15112026/gps.six); nothing was saved.',
  'imports.refused.tooManyLaps':
    'The file ({format}) holds more than {max, number} laps of its own, which no day at a track has; nothing was saved.',
  'imports.refused.encoding':
    'The GPX declares an encoding Voltas does not read ({encoding}); use UTF-8 or windows-1252.',
  'imports.refused.empty': 'The file is empty; nothing was saved.',
  'imports.refused.noFix': 'The file ({format}) holds no usable GPS position; nothing was saved.',
  'imports.refused.lapSixTooLarge': 'A lap.six is at most {mb} MB; nothing was saved.',
  'imports.refused.tooComplexMemory':
    'The file is too complex: reading it would need more than the {mb} MB of memory an import may use; nothing was saved.',
  'imports.refused.tooComplexTime':
    'The file is too large or complex: reading it would take longer than the {seconds} s an import may take; nothing was saved.',
  'imports.refused.gzipTooLarge':
    'The .gz unpacks past {mb} MB: a .gz may grow up to {ratio} times its size, and to {maxMb} MB at most; nothing was saved.',
  'imports.refused.tooLarge': 'Imports take files of up to {mb} MB; nothing was saved.',
  'imports.refused.noLapSixLine': 'No valid lap.six line; nothing was saved.',
  'imports.refused.sessionFiles':
    'A session (one track, one day) takes at most {max, number} files, and this one has them already; nothing was saved.',
  'imports.refused.sessionFixes':
    'With this file the session (one track, one day) would hold {fixes, number} GPS points, more than the {max, number} a session takes; nothing was saved.',
  'imports.refused.quota':
    'You store {usedMb, number} MB of {limitMb, number} MB, and this import needs about {neededMb, number} MB; nothing was saved. Delete the imported sessions you no longer need (Import sessions → Delete imported session) and try again.',
  'imports.storage': 'Storage used: {usedMb, number} MB of {limitMb, number} MB',
} satisfies Partial<Catalog>;
