/**
 * The dashboard page: one user's debts from the debtkit API, drawn with
 * Chartist (SVG: every point is in the DOM with its value, so a screen reader
 * and the browser test read what is drawn; docs/decisions/client.md, "The
 * dashboard"). Each chart also has its numbers as a table.
 *
 * The page calls the API on its own origin: the dashboard's server sits in
 * front of debtkit and adds the token, so the page holds none (debtkit has no CORS).
 */
import 'chartist/dist/index.css';
import './dashboard.css';
import { LineChart, type LineChartData } from 'chartist';
import { createClient } from '@debtkit/client';
import {
  API_VERSION,
  FACTOR_LABELS,
  FACTOR_NAMES,
  balancesOf,
  dollars,
  loadDashboard,
  totalsOf,
  type DashboardData,
} from './dashboard-data.js';

const SERIES_CLASSES = ['s-a', 's-b', 's-c', 's-d', 's-e', 's-f'];

const element = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};

/** About `labels` labels along the axis, so a 30-year path stays readable; `short` keeps the year only. */
const sparseLabels =
  (count: number, labels = 8, short = false) =>
  (value: unknown, index: number) =>
    index % Math.max(1, Math.ceil(count / labels)) === 0 ? (short ? String(value).slice(0, 4) : String(value).slice(0, 7)) : null;

/** The numbers of a chart as a table: the accessible equivalent of the drawing. */
const table = (caption: string, columns: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): HTMLElement => {
  const details = element('details');
  details.append(element('summary', {}, `${caption}: the numbers`));
  const t = element('table');
  const head = element('tr');
  for (const c of columns) head.append(element('th', { scope: 'col' }, c));
  t.append(head);
  for (const r of rows) {
    const tr = element('tr');
    for (const c of r) tr.append(element('td', {}, c));
    t.append(tr);
  }
  details.append(t);
  return details;
};

/** Draws a line chart into `figure` and resolves when Chartist has drawn it. */
const draw = (
  figure: HTMLElement,
  id: string,
  label: string,
  data: LineChartData,
  options: ConstructorParameters<typeof LineChart>[2],
  legend?: ReadonlyArray<string>,
): Promise<void> => {
  const holder = element('div', { class: 'chart', id, role: 'img', 'aria-label': label });
  figure.append(holder);
  if (legend !== undefined) {
    const list = element('ul', { class: 'legend', 'aria-hidden': 'true' });
    legend.forEach((name, i) => list.append(element('li', { class: SERIES_CLASSES[i % SERIES_CLASSES.length]! }, name)));
    figure.append(list);
  }
  return new Promise((resolve) => new LineChart(holder, data, options).on('created', () => resolve()));
};

const render = async (d: DashboardData): Promise<void> => {
  const plan = d.plan;
  const min = d.minimumOnly;
  const name = [d.user.first_name, d.user.last_name].filter((n) => n !== null && n !== '').join(' ');
  document.querySelector('#title')!.textContent = `${name}'s debts`;
  const payoff = (p: typeof plan) => (p.payoff_date === null ? 'not within 50 years' : `by ${p.payoff_date} (${p.months} months)`);
  document.querySelector('#summary')!.textContent =
    `Plan #${plan.id} (${plan.strategy}, ${dollars(plan.monthly_payment)} a month): debt-free ${payoff(plan)}, ${dollars(plan.total_interest ?? 0)} of interest. ` +
    `Paying only the minimums: debt-free ${payoff(min)}, ${dollars(min.total_interest ?? 0)} of interest.`;

  const planAccounts = plan.account_ids.map((id) => d.accounts.find((a) => a.id === id)).filter((a) => a !== undefined);
  const months = d.planSchedule.map((m) => m.date);
  const perAccount = planAccounts.map((a) => ({ name: a.name, data: balancesOf(d.planSchedule, a.id) }));
  const money = { labelInterpolationFnc: (v: unknown) => dollars(Number(v)) };
  const drawn: Promise<void>[] = [];

  const balances = document.querySelector<HTMLElement>('#balances')!;
  drawn.push(
    draw(
      balances,
      'balances-chart',
      `Line chart: the balance of each of ${planAccounts.length} accounts after each of the plan's ${months.length} months, from ${dollars(totalsOf(d.planSchedule)[0] ?? 0)} in all after month 1 to ${dollars(0)}.`,
      { labels: months, series: perAccount },
      {
        showPoint: true,
        lineSmooth: false,
        fullWidth: true,
        axisX: { labelInterpolationFnc: sparseLabels(months.length) },
        axisY: { ...money, offset: 80 },
      },
      perAccount.map((s) => s.name),
    ),
  );
  balances.append(element('figcaption', {}, `Balances after each month's payments of plan #${plan.id}, per account.`));
  balances.append(
    table(
      'Balances',
      ['month', 'date', ...perAccount.map((s) => s.name)],
      d.planSchedule.map((m, i) => [String(m.month), m.date, ...perAccount.map((s) => dollars(s.data[i] ?? 0))]),
    ),
  );

  const versus = document.querySelector<HTMLElement>('#versus')!;
  const longest = d.minimumSchedule.length >= d.planSchedule.length ? d.minimumSchedule : d.planSchedule;
  const planTotals = totalsOf(d.planSchedule);
  const minTotals = totalsOf(d.minimumSchedule);
  drawn.push(
    draw(
      versus,
      'versus-chart',
      `Line chart: the whole debt month by month, the plan (${planTotals.length} months) beside minimum payments only (${minTotals.length} months).`,
      {
        labels: longest.map((m) => m.date),
        series: [
          { name: `Plan #${plan.id}`, data: planTotals },
          { name: `Minimums only (plan #${min.id})`, data: minTotals },
        ],
      },
      {
        showPoint: true,
        lineSmooth: false,
        fullWidth: true,
        axisX: { labelInterpolationFnc: sparseLabels(longest.length) },
        axisY: { ...money, offset: 80 },
      },
      [`Plan #${plan.id}`, `Minimums only`],
    ),
  );
  versus.append(
    element('figcaption', {}, 'The total of every balance after each month: the plan, and the same debts paying only their minimums.'),
  );
  versus.append(
    table(
      'Total debt',
      ['month', 'date', 'plan', 'minimums only'],
      longest.map((m, i) => [
        String(m.month),
        m.date,
        planTotals[i] === undefined ? '' : dollars(planTotals[i]),
        minTotals[i] === undefined ? '' : dollars(minTotals[i]),
      ]),
    ),
  );

  const factors = document.querySelector<HTMLElement>('#factors')!;
  const outlookMonths = d.outlook.months;
  for (const factor of FACTOR_NAMES) {
    const figure = element('figure', { 'data-factor': factor });
    figure.append(element('h3', {}, FACTOR_LABELS[factor]));
    factors.append(figure);
    const values = outlookMonths.map((m) => m.factors[factor].amount);
    const first = outlookMonths[0]?.factors[factor];
    const last = outlookMonths[outlookMonths.length - 1]?.factors[factor];
    drawn.push(
      draw(
        figure,
        `factor-${factor}`,
        `Line chart of ${FACTOR_LABELS[factor]} from month 0 to month ${outlookMonths.length - 1}: ${first?.amount} (${first?.factor}) now, ${last?.amount} (${last?.factor}) at the end.`,
        { labels: outlookMonths.map((m) => m.date), series: [{ name: factor, data: values }] },
        {
          showPoint: true,
          lineSmooth: false,
          fullWidth: true,
          axisX: { labelInterpolationFnc: sparseLabels(outlookMonths.length, 4, true) },
          axisY: { onlyInteger: false },
        },
      ),
    );
    const turns = d.outlook.milestones.filter((m) => m.factor === factor);
    figure.append(
      element(
        'figcaption',
        {},
        `Now ${first?.amount} (${first?.factor}).` +
          (turns.length === 0
            ? ' No change of rating over the plan.'
            : turns.map((t) => ` Month ${t.month} (${t.date}): ${t.from} → ${t.to}.`).join('')),
      ),
    );
  }
  const milestones = document.querySelector<HTMLElement>('#milestones')!;
  if (d.outlook.milestones.length === 0) milestones.append(element('li', {}, 'No factor changes its rating over the plan.'));
  for (const m of d.outlook.milestones) {
    milestones.append(
      element(
        'li',
        { 'data-factor': m.factor, 'data-month': String(m.month) },
        `Month ${m.month} (${m.date}): ${FACTOR_LABELS[m.factor]} turns ${m.to} (was ${m.from}).`,
      ),
    );
  }
  await Promise.all(drawn);
};

const main = async (): Promise<void> => {
  const userId = Number(new URLSearchParams(location.search).get('user') ?? '1');
  // No token: the server in front of debtkit adds it.
  const client = createClient({ baseUrl: location.origin, apiVersion: API_VERSION });
  try {
    const data = await loadDashboard(client, userId);
    await render(data);
    document.body.dataset['created'] = data.created.join(' ');
    document.body.dataset['state'] = 'ready';
  } catch (e) {
    const summary = document.querySelector('#summary')!;
    summary.textContent = `The dashboard could not load: ${e instanceof Error ? e.message : String(e)}`;
    summary.classList.add('error');
    document.body.dataset['state'] = 'error';
  }
};

void main();
