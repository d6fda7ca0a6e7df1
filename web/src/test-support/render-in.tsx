import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { RawIntlProvider, type IntlShape } from 'react-intl';
import { intlFor, type Language } from '#core/i18n/intl.ts';

/** Testing Library's render inside the app's intl provider (as main.tsx sets it up), pt-BR by default. */
export function renderInIntl(ui: ReactNode, language: Language = 'pt-BR'): RenderResult {
  const intl = intlFor(language) as unknown as IntlShape;
  return render(ui, { wrapper: ({ children }) => <RawIntlProvider value={intl}>{children}</RawIntlProvider> });
}
