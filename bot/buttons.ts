import type { ButtonStyle } from 'discord.js';
import { ComponentType, type APIActionRowComponent, type APIButtonComponent } from 'discord.js';

// Buttons of the bot's messages: rows of them, as Discord takes them (at most 5 a row, 5 rows).

export type ButtonSpec = {
  style: ButtonStyle.Primary | ButtonStyle.Secondary | ButtonStyle.Success | ButtonStyle.Danger;
  label: string;
  custom_id: string;
  disabled?: boolean;
};

export const BUTTONS_PER_ROW = 5;
export const ROWS_MAX = 5;

/** One row of buttons. */
export function buttonRow(buttons: ButtonSpec[]): APIActionRowComponent<APIButtonComponent> {
  return {
    type: ComponentType.ActionRow,
    components: buttons.map((b) => ({ type: ComponentType.Button, ...b })),
  };
}

/** As many rows as the buttons need (the caller keeps them within BUTTONS_PER_ROW × ROWS_MAX). */
export function buttonRows(buttons: ButtonSpec[]): APIActionRowComponent<APIButtonComponent>[] {
  const rows = [];
  for (let i = 0; i < buttons.length; i += BUTTONS_PER_ROW)
    rows.push(buttonRow(buttons.slice(i, i + BUTTONS_PER_ROW)));
  return rows;
}
