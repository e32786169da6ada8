export { uiPlugin, SESSION_COOKIE, type UiOptions } from './plugin.ts';
