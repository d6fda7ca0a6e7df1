import { useT, type MessageId } from '#web/i18n/messages.ts';

/** The device's own menu and screen words (they are the device's, so the same in every language) and what each does. */
const DEVICE_MENU = ['send', 'delete', 'update', 'box', 'wifi', 'bateria', 'info'] as const;
const SCREEN_MESSAGES = ['pitlane', 'slowdown', 'readytorace', 'warmupthetires'] as const;
const MAINTENANCE = ['home.maintenance.1', 'home.maintenance.2', 'home.maintenance.3'] as const;

function TermList({ entries }: { entries: readonly (readonly [MessageId, MessageId])[] }) {
  const t = useT();
  return (
    <dl className="guide-list">
      {entries.map(([term, text]) => (
        <div key={term}>
          <dt>{t(term as 'home.deviceMenu.send.term')}</dt>
          <dd>{t(text as 'home.deviceMenu.send.text')}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The spec's usage guide, section by section. `folded`: for a rider with no device of their own
 * (they import files), the guide stays on the page, closed under its title, below their sessions.
 */
export function UsageGuide({ folded = false }: { folded?: boolean }) {
  const t = useT();
  const sections = <GuideSections />;
  if (folded)
    return (
      <details className="guide guide-folded" data-testid="usage-guide">
        <summary>
          <h2 id="guide-title">{t('home.guideTitle')}</h2>
          <span className="muted">{t('home.guideFoldedHint')}</span>
        </summary>
        {sections}
      </details>
    );
  return (
    <article className="guide" aria-labelledby="guide-title" data-testid="usage-guide">
      <h2 id="guide-title">{t('home.guideTitle')}</h2>
      {sections}
    </article>
  );
}

function GuideSections() {
  const t = useT();
  return (
    <>
      <section>
        <h3>{t('home.installTitle')}</h3>
        <p>{t('home.installBody')}</p>
      </section>
      <section>
        <h3>{t('home.deviceMenuTitle')}</h3>
        <TermList
          entries={DEVICE_MENU.map((k) => [`home.deviceMenu.${k}.term`, `home.deviceMenu.${k}.text`] as const)}
        />
      </section>
      <section>
        <h3>{t('home.timingTitle')}</h3>
        <p>{t('home.timingBody')}</p>
      </section>
      <section>
        <h3>{t('home.messagesTitle')}</h3>
        <TermList
          entries={SCREEN_MESSAGES.map((k) => [`home.messages.${k}.term`, `home.messages.${k}.text`] as const)}
        />
      </section>
      <section>
        <h3>{t('home.maintenanceTitle')}</h3>
        <ul>
          {MAINTENANCE.map((id) => (
            <li key={id}>{t(id)}</li>
          ))}
        </ul>
      </section>
      <section>
        <h3>{t('home.supportTitle')}</h3>
        <p>
          {t('home.supportBody')} <a href={`mailto:${t('home.supportEmail')}`}>{t('home.supportEmail')}</a>.
        </p>
      </section>
    </>
  );
}
