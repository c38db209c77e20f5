import type { WebhookKind } from '@svc/contract';
import { discord } from './webhook.discord.js';
import { generic } from './webhook.generic.js';
import { gotify } from './webhook.gotify.js';
import type { WebhookKindImpl } from './webhook.kind.js';
import { mattermost } from './webhook.mattermost.js';
import { ntfy } from './webhook.ntfy.js';
import { pagerduty } from './webhook.pagerduty.js';
import { pushover } from './webhook.pushover.js';
import { slack } from './webhook.slack.js';
import { teams, teamsAdaptive } from './webhook.teams.js';
import { telegram } from './webhook.telegram.js';

/** Every webhook kind of the contract; a kind without an implementation does not compile. */
export const webhookKindImpls: Record<WebhookKind, WebhookKindImpl> = {
  generic,
  discord,
  slack,
  teams,
  'teams-adaptive': teamsAdaptive,
  telegram,
  gotify,
  ntfy,
  pagerduty,
  pushover,
  mattermost,
};
