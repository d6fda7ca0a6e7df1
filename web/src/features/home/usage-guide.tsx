import { t } from '#web/i18n/messages.ts';

function TermList({ entries }: { entries: readonly (readonly [string, string])[] }) {
  return (
    <dl className="guide-list">
      {entries.map(([term, text]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{text}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The spec's usage guide, section by section. */
export function UsageGuide() {
  const g = t.home;
  return (
    <article className="guide" aria-labelledby="guide-title">
      <h2 id="guide-title">{g.guideTitle}</h2>
      <section>
        <h3>{g.installTitle}</h3>
        <p>{g.installBody}</p>
      </section>
      <section>
        <h3>{g.deviceMenuTitle}</h3>
        <TermList entries={g.deviceMenu} />
      </section>
      <section>
        <h3>{g.timingTitle}</h3>
        <p>{g.timingBody}</p>
      </section>
      <section>
        <h3>{g.messagesTitle}</h3>
        <TermList entries={g.messages} />
      </section>
      <section>
        <h3>{g.maintenanceTitle}</h3>
        <ul>
          {g.maintenance.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </section>
      <section>
        <h3>{g.supportTitle}</h3>
        <p>
          {g.supportBody} <a href={`mailto:${g.supportEmail}`}>{g.supportEmail}</a>.
        </p>
      </section>
    </article>
  );
}
