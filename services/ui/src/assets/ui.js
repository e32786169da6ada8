// The UI's only script (a plain module; every page works without it): the PT/ZH switch of the round page shows
// the chosen language's article texts at once, remembers the choice for this session, and keeps the address
// shareable. Without script the same form reloads the page with ?lang=.
/* global document, sessionStorage, history */

const LANG_KEY = 'table-audit.lang';

function showLanguage(lang) {
  for (const el of document.querySelectorAll('[data-lang]')) el.hidden = el.dataset.lang !== lang;
  const url = new URL(document.location.href);
  url.searchParams.set('lang', lang);
  history.replaceState(null, '', url);
}

for (const form of document.querySelectorAll('form[data-lang-switch]')) {
  const submit = form.querySelector('button[type="submit"]');
  if (submit) submit.hidden = true;
  const chosen = new URL(document.location.href).searchParams.get('lang') ?? sessionStorage.getItem(LANG_KEY);
  if (chosen === 'pt' || chosen === 'zh') {
    const radio = form.querySelector(`input[name="lang"][value="${chosen}"]`);
    if (radio) radio.checked = true;
    showLanguage(chosen);
  }
  form.addEventListener('change', (event) => {
    const lang = event.target.value;
    sessionStorage.setItem(LANG_KEY, lang);
    showLanguage(lang);
  });
}
