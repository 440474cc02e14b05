import type { BotCommand } from '../command.ts';
import { command as blocklist } from './blocklist.ts';
import { command as claim } from './claim.ts';
import { helpCommand } from './help.ts';
import { command as httpkey } from './httpkey.ts';
import { command as keys } from './keys.ts';
import { command as minimumVersion } from './minimum-version.ts';
import { command as revoke } from './revoke.ts';
import { command as servers } from './servers.ts';

const listed = [claim, httpkey, keys, servers, revoke, minimumVersion, blocklist];

/** Every slash command, in the order Discord lists them after registration. */
export const COMMANDS: readonly BotCommand[] = [...listed, helpCommand(listed)];
