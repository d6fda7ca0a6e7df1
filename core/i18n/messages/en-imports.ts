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
  'imports.openAnalytics': 'See analysis',
  'imports.empty': 'No file chosen yet.',
  'imports.collection': 'Imported',
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
  'imports.warnings.fileLineUnused':
    'The file’s finish line does not cross the racing line: the track’s line was used.',
  'imports.warnings.leanCalculated': 'The lean angle in this file was worked out by the app, not measured by a sensor.',
  'imports.warnings.sameRecording':
    'This file is the same recording as {file} (same times): the laps were not duplicated.',
  'imports.warnings.otherFile': 'another file',
} satisfies Partial<Catalog>;
