/**
 * The articles shipped with the service (docs/api/reference.md), ids 1…N ascending. Like
 * the learning modules they are data, so every content adapter serves the same
 * text; examples state their rates as assumptions, never as current facts.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { Article } from './content.js';

/** Readable HTML in source, compact HTML shipped (whitespace around block tags removed). */
const fragment = (strings: TemplateStringsArray, ...values: ReadonlyArray<string | number>): string =>
  String.raw({ raw: strings }, ...values)
    .replace(/\s+/g, ' ')
    .replace(/\s*(<\/?(?:h2|h3|p|ul|ol|li)>)\s*/g, '$1')
    .trim();

/** Plain literals here; the `Article` codec brands ids and dates once, at load. */
const RAW_ARTICLES = [
  {
    id: 1,
    title: 'How to Read Your Credit Card Statement',
    category: 'financial_basics',
    summary:
      'Your monthly statement tells you more than what you owe. Here is where to find the numbers that matter and what each one means for your payoff plan.',
    published_at: '2024-02-12',
    content: fragment`
      <h2>How to read your credit card statement</h2>
      <p>A credit card statement can look like a wall of numbers, but a handful of lines tell you almost everything
      you need to manage the account well.</p>
      <h3>The lines that matter</h3>
      <ul>
        <li><strong>Statement balance:</strong> everything you owed when the billing cycle closed. Pay it in full by
        the due date and you normally owe no interest on new purchases.</li>
        <li><strong>Minimum payment due:</strong> the least you must pay to avoid a late fee and a late mark on your
        credit report. It is not a payoff plan.</li>
        <li><strong>Payment due date:</strong> by law it falls on the same day every month, so it is easy to
        schedule autopay a few days before.</li>
        <li><strong>APRs:</strong> purchases, balance transfers and cash advances often carry different rates, and a
        promotional rate lists the date it ends.</li>
        <li><strong>Interest charged:</strong> what carrying a balance cost you this month, with a year-to-date
        total.</li>
        <li><strong>Credit limit and available credit:</strong> use them to work out your utilization.</li>
      </ul>
      <h3>The minimum payment warning</h3>
      <p>Federal rules require a box showing how long it would take to pay off your balance with minimum payments
      only, and how much you would pay in total. It also shows the monthly payment that clears the balance in three
      years and what that would cost. The difference between the two totals is the price of paying only the
      minimum.</p>
      <h3>A five-minute monthly review</h3>
      <ol>
        <li>Scan every transaction for charges you do not recognize and dispute them promptly.</li>
        <li>Look for new fees or a changed rate; issuers must give 45 days' notice of most rate increases.</li>
        <li>Note the interest charged and add it to your debt tracker.</li>
        <li>Schedule a payment above the minimum, and if you carry several balances, direct the extra according to
        your avalanche or snowball plan.</li>
      </ol>
      <p>Reading the statement every month turns it from a bill into a progress report.</p>
    `,
  },
  {
    id: 2,
    title: 'Five Questions to Ask Before Consolidating Debt',
    category: 'financial_basics',
    summary:
      'A consolidation loan or balance transfer can cut your interest costs, but only if the numbers and your habits line up. Ask these questions first.',
    published_at: '2024-05-20',
    content: fragment`
      <h2>Five questions to ask before consolidating debt</h2>
      <p>Debt consolidation replaces several debts with one, usually through a personal loan or a balance transfer
      card. Done well, it lowers your interest rate and simplifies your payments. Done poorly, it only moves the
      balance around, or adds to it.</p>
      <h3>1. Is the new rate actually lower?</h3>
      <p>Compare the APR of the new loan with the average rate you pay now, weighted by balance, and include fees.
      An origination fee of several percent can erase much of the benefit on a small balance.</p>
      <h3>2. What happens when a promotional rate ends?</h3>
      <p>Balance transfer cards usually charge a transfer fee, commonly 3% to 5% of the amount moved, and the low rate
      lasts only for a set period. Divide the balance by the number of promotional months to find the payment that
      clears it in time: $4,800 over 15 months is $320 a month.</p>
      <h3>3. Does the payment fit your budget?</h3>
      <p>A longer term lowers the payment but can raise the total interest. Choose the shortest term you can reliably
      afford.</p>
      <h3>4. How will it affect your credit?</h3>
      <p>An application causes a hard inquiry, which typically lowers a score slightly and briefly. Paying off cards
      with a loan can reduce your credit utilization, which often helps. Keep the paid-off cards open unless they
      charge an annual fee you do not want to pay.</p>
      <h3>5. Have you fixed what caused the debt?</h3>
      <p>This is the most important question. If the cards are cleared and the spending continues, you end up with
      the new loan and new card balances. Build a budget, start an emergency fund and put the cards out of reach
      before you consolidate.</p>
      <p>Be wary of anyone who charges upfront fees to settle or consolidate debt, or who tells you to stop paying
      your creditors. Nonprofit credit counseling agencies can review your options, often at little or no cost.</p>
    `,
  },
  {
    id: 3,
    title: 'Should You Use a Bonus to Pay Down Debt?',
    category: 'career',
    summary:
      'A bonus or raise is a chance to make real progress on debt. A simple split between debt, savings and something you enjoy keeps the windfall from disappearing.',
    published_at: '2024-09-03',
    content: fragment`
      <h2>Should you use a bonus to pay down debt?</h2>
      <p>A year-end bonus, a raise or a commission check can feel like found money. Used deliberately, it can wipe
      out a credit card or fill an emergency fund in a single step.</p>
      <h3>First, know what you will receive</h3>
      <p>Bonuses count as supplemental wages, and employers often withhold federal income tax on them at a flat rate,
      plus Social Security, Medicare and any state tax. A $5,000 bonus can arrive as noticeably less. Plan with the
      net amount, not the headline number.</p>
      <h3>A simple plan for a windfall</h3>
      <ol>
        <li><strong>Cover anything urgent,</strong> such as a past-due bill that is about to be reported late.</li>
        <li><strong>Top up your emergency fund</strong> if it is below your starter goal.</li>
        <li><strong>Hit your highest-rate debt.</strong> A lump sum on a card charging over 20% is a guaranteed return
        no investment can promise.</li>
        <li><strong>Keep a small share for yourself.</strong> Setting aside 10% for something you enjoy makes the
        plan easier to keep.</li>
      </ol>
      <h3>What about a raise?</h3>
      <p>A raise is more powerful than a bonus because it repeats. Before the first larger paycheck arrives, increase
      your automatic debt payment or savings transfer by at least half of the raise. You never get used to spending
      it, and your payoff date moves closer every month.</p>
      <h3>An example</h3>
      <p>Priya receives a bonus that nets $3,600. Her emergency fund already covers one month of expenses, so she puts
      $3,240 toward her credit card at 24% APR and spends $360 on a weekend trip. Taking $3,240 off that balance saves
      her roughly $780 in interest over the next year alone, and the payments she was already making now go
      further.</p>
      <p>Whatever you choose, decide before the money arrives. Money without a plan tends to get spent.</p>
    `,
  },
  {
    id: 4,
    title: 'Comparing College Financial Aid Offers',
    category: 'college',
    summary:
      'Aid offers from different schools are formatted differently and mix grants with loans. Put them side by side on the same terms to find the real cost.',
    published_at: '2025-01-15',
    content: fragment`
      <h2>Comparing college financial aid offers</h2>
      <p>Every college formats its aid offer differently, and some list loans right next to scholarships as if they
      were the same thing. To compare fairly, rebuild each offer in the same format.</p>
      <h3>Build a side-by-side table</h3>
      <ol>
        <li><strong>Cost of attendance:</strong> tuition, fees, housing, food, books, transportation and personal
        costs. If a school lists only tuition and housing, estimate the rest.</li>
        <li><strong>Gift aid:</strong> grants and scholarships. Note whether each renews every year and what grade
        point average it requires.</li>
        <li><strong>Net price:</strong> cost of attendance minus gift aid. This is what savings, earnings or loans
        must cover.</li>
        <li><strong>Self-help aid:</strong> work-study and loans, listed separately.</li>
      </ol>
      <h3>An example</h3>
      <p>School A costs $28,000 a year and offers $12,000 in grants. School B costs $45,000 and offers $25,000 in
      grants. The bigger award is at School B, but its net price is $20,000 against School A's $16,000. Over four
      years that is a $16,000 difference, possibly more once loan interest is added.</p>
      <h3>Questions for the aid office</h3>
      <ul>
        <li>Will my grants stay the same if tuition rises?</li>
        <li>Are outside scholarships subtracted from the school's own aid?</li>
        <li>What is the typical debt of graduates in my program?</li>
        <li>Can the offer be reviewed if our family's finances have changed?</li>
      </ul>
      <p>Many schools will reconsider an offer when you show a better one from a comparable school or document a
      change in circumstances such as a job loss or medical expenses. Ask politely, in writing, and include
      numbers.</p>
      <p>Finally, estimate your monthly loan payment after graduation and compare it with typical starting salaries in
      your field. The best value is the school that gives you a strong education without a debt load that limits
      your choices later.</p>
    `,
  },
  {
    id: 5,
    title: 'Dollar-Cost Averaging, Explained',
    category: 'investing',
    summary:
      'Investing a fixed amount on a regular schedule takes emotion out of investing. Here is how it works, and when a lump sum may be the better choice.',
    published_at: '2025-03-10',
    content: fragment`
      <h2>Dollar-cost averaging, explained</h2>
      <p>Dollar-cost averaging means investing a fixed dollar amount on a regular schedule, such as $200 every
      payday, whatever the market is doing. If you contribute to a 401(k) through payroll, you already do it.</p>
      <h3>How it works</h3>
      <p>Because the dollar amount stays the same, you automatically buy more shares when prices are low and fewer
      when they are high. Suppose you invest $300 a month for three months in a fund whose price moves from $30 to
      $20 to $25. You buy 10 shares, then 15, then 12: 37 shares for $900. Your average cost is about $24.32 a
      share, below the $25 average of the three prices.</p>
      <h3>Why it helps</h3>
      <ul>
        <li>It removes the temptation to time the market, which even professionals rarely do well.</li>
        <li>It turns investing into a habit that runs automatically.</li>
        <li>It softens regret: a drop right after you invest affects only one contribution.</li>
      </ul>
      <h3>When a lump sum may be better</h3>
      <p>If you already hold a large sum, such as an inheritance, history suggests that investing it all at once has
      come out ahead more often than not, because markets have risen more often than they have fallen. Spreading it
      over several months is still a reasonable choice if it helps you stay invested through a downturn. Neither
      approach guarantees a profit or protects against losses in a falling market.</p>
      <h3>Getting started</h3>
      <ol>
        <li>Pay off high-interest debt and build a starter emergency fund first.</li>
        <li>Pick a diversified, low-cost fund that fits your timeline.</li>
        <li>Set up an automatic contribution on payday.</li>
        <li>Raise the amount whenever you get a raise or pay off a debt.</li>
      </ol>
    `,
  },
  {
    id: 6,
    title: 'Why Your Deductible Matters More Than You Think',
    category: 'risk_management',
    summary:
      'Choosing a health plan by premium alone can leave you with a bill you cannot pay. Compare plans by their total yearly cost instead.',
    published_at: '2025-06-02',
    content: fragment`
      <h2>Why your deductible matters more than you think</h2>
      <p>During open enrollment it is tempting to pick the health plan with the lowest premium. But the premium is
      only part of what you pay. The deductible, coinsurance and out-of-pocket maximum decide how big your bills get
      when you actually need care, and unpaid medical bills are a common path into debt.</p>
      <h3>Compare the total yearly cost</h3>
      <p>Estimate two scenarios for each plan: a light year with only routine care, and a bad year in which you reach
      the out-of-pocket maximum.</p>
      <ul>
        <li><strong>Plan A:</strong> $150 a month in premiums ($1,800 a year), a $3,000 deductible and a $6,000
        out-of-pocket maximum. Worst case: $7,800.</li>
        <li><strong>Plan B:</strong> $300 a month ($3,600 a year), a $500 deductible and a $3,000 out-of-pocket
        maximum. Worst case: $6,600.</li>
      </ul>
      <p>In a healthy year Plan A saves $1,800; in a bad year Plan B saves $1,200. The right choice depends on your
      health, the care you expect and, above all, whether you have the cash to cover a large deductible.</p>
      <h3>Match the deductible to your savings</h3>
      <p>A good rule: choose a deductible you could pay from your emergency fund today. If a $3,000 bill would go on a
      credit card at a high rate, the cheaper plan may not be cheaper at all.</p>
      <h3>Use the tools you have</h3>
      <ol>
        <li>With a qualifying high-deductible plan, open a health savings account (HSA). Contributions are
        tax-deductible, growth is tax-free, and withdrawals for qualified medical expenses are tax-free.</li>
        <li>Put the premium you save with a cheaper plan straight into your HSA or emergency fund.</li>
        <li>Check that your doctors and prescriptions are in the plan's network.</li>
        <li>If a large medical bill arrives, ask for an itemized statement, check it for errors, and ask about
        financial assistance and interest-free payment plans before putting it on a card.</li>
      </ol>
    `,
  },
  {
    id: 7,
    title: 'Teaching Teens About Interest With Real Numbers',
    category: 'teen_finance',
    summary:
      'Abstract warnings about debt rarely stick. Walking through real numbers with a teen makes interest, on savings and on cards, easy to understand.',
    published_at: '2025-08-18',
    content: fragment`
      <h2>Teaching teens about interest with real numbers</h2>
      <p>Telling a teenager that credit cards are dangerous rarely works. Showing them what interest does, with numbers
      they can check on a calculator, works much better.</p>
      <h3>Exercise 1: the cost of carrying a balance</h3>
      <p>Imagine buying a $1,000 laptop on a card with an illustrative 24% APR. Paying $40 a month takes about three
      years and costs roughly $400 in interest, so the laptop really costs about $1,400. Paying $100 a month finishes
      in a year with about $127 in interest. Ask your teen what that difference could have bought instead.</p>
      <h3>Exercise 2: interest working for you</h3>
      <p>Now flip it. If your teen invests $1,000 at 16 and it earns an assumed 7% a year, it grows to about $1,970 at
      26, $3,870 at 36 and $7,610 at 46, without another dollar added. The same force that makes debt expensive makes
      early saving powerful.</p>
      <h3>Exercise 3: the rule of 72</h3>
      <p>Teach the shortcut: divide 72 by the interest rate to estimate how many years it takes money to double. At
      24%, an unpaid debt doubles in about three years. At 4%, savings double in about eighteen.</p>
      <h3>Turning lessons into habits</h3>
      <ul>
        <li>Open a savings account together and look at the interest it pays each month.</li>
        <li>Add your teen as an authorized user on a card you pay in full, and review the statement together.</li>
        <li>Let them make small money mistakes now, while the stakes are low.</li>
        <li>Talk openly about your own financial decisions, including the ones you would make differently.</li>
      </ul>
      <p>Teens who understand interest before their first credit card offer arrives are far more likely to treat the
      card as a tool rather than as extra money.</p>
    `,
  },
  {
    id: 8,
    title: 'Pricing Your Freelance Work to Cover Taxes and Benefits',
    category: 'entrepreneurship',
    summary:
      'Charging your old hourly wage as a freelancer leaves you earning less. Build your rate from the costs an employer used to cover.',
    published_at: '2025-11-04',
    content: fragment`
      <h2>Pricing your freelance work to cover taxes and benefits</h2>
      <p>Many new freelancers set their hourly rate to match their old salary. It feels fair, but it leaves them
      earning far less, because an employer was quietly paying for things a freelancer now covers alone.</p>
      <h3>What your rate must cover</h3>
      <ul>
        <li>The employer half of Social Security and Medicare, now part of your 15.3% self-employment tax.</li>
        <li>Health insurance premiums.</li>
        <li>Retirement contributions, with no employer match.</li>
        <li>Vacation, holidays and sick days, which now bring in nothing.</li>
        <li>Software, equipment, insurance and other business expenses.</li>
        <li>Unbilled time for marketing, invoicing and administration.</li>
      </ul>
      <h3>Build your rate from the bottom up</h3>
      <ol>
        <li>Set a target income: what you want to pay yourself before income tax.</li>
        <li>Add your yearly business costs and benefits.</li>
        <li>Estimate billable hours realistically. Working 48 weeks at 25 billable hours a week gives 1,200 hours,
        not 2,080.</li>
        <li>Divide the total by your billable hours.</li>
      </ol>
      <p>For example, a designer who wants to pay herself $60,000, expects $12,000 of health insurance, retirement and
      business costs, and sets aside $9,000 toward self-employment tax needs about $81,000 a year. Spread over 1,200
      billable hours, that is $67.50 an hour, well above the roughly $29 an hour that a $60,000 salary works out to
      over a 2,080-hour year.</p>
      <h3>Protect your cash flow</h3>
      <p>Ask for deposits on large projects, put clear payment terms on every invoice, and keep a buffer of two to
      three months of expenses in your business account. Freelancers who price too low often fill the gaps with
      credit cards; pricing correctly from the start is the best debt prevention there is.</p>
    `,
  },
  {
    id: 9,
    title: 'Paying Down Debt Before a Mortgage Application',
    category: 'major_milestones',
    summary:
      'Your debt-to-income ratio and credit utilization can change the rate you are offered. Here is how to prepare your debts in the months before you apply.',
    published_at: '2026-02-09',
    content: fragment`
      <h2>Paying down debt before a mortgage application</h2>
      <p>When you apply for a mortgage, lenders focus on two numbers your debts directly shape: your debt-to-income
      ratio (DTI) and your credit score. Six to twelve months of focused preparation can improve both.</p>
      <h3>Know your debt-to-income ratio</h3>
      <p>DTI is your total monthly debt payments divided by your gross monthly income. With a $6,000 monthly income, a
      $400 car payment, a $250 student loan payment and $150 of card minimums, your DTI before housing is $800
      divided by $6,000, about 13%. Add a $1,700 mortgage payment and it becomes about 42%. Many lenders prefer a
      total DTI of 36% or less, though limits vary by loan program.</p>
      <h3>Where to focus</h3>
      <ol>
        <li><strong>Pay down credit cards first.</strong> Lower balances reduce your utilization and your minimum
        payments, which can help both your score and your DTI.</li>
        <li><strong>Consider paying off a loan with only a few payments left.</strong> Removing a whole payment can
        lower your DTI more than spreading the same money across balances.</li>
        <li><strong>Keep old cards open.</strong> Closing them can raise your utilization and shorten your credit
        history.</li>
        <li><strong>Pause new credit.</strong> Skip store card offers and do not finance a car or furniture until
        after closing.</li>
        <li><strong>Keep enough cash.</strong> Do not drain the savings you need for the down payment, closing costs
        and reserves.</li>
      </ol>
      <h3>Timing matters</h3>
      <p>Card balances are usually reported to the bureaus once a month, so pay them down before your statement
      closing dates a month or two before you apply. Check your credit reports for errors early, because a dispute
      can take 30 days or more to resolve.</p>
      <p>Once you are preapproved, keep everything steady until closing. Lenders often check your credit again before
      the loan funds, and a new account or a missed payment can delay or derail the purchase.</p>
    `,
  },
  {
    id: 10,
    title: 'Setting Up Automatic Payments Without Overdrafting',
    category: 'financial_basics',
    summary:
      'Autopay protects your credit from missed due dates, but it can trigger overdraft fees if the timing is off. Here is how to set it up safely.',
    published_at: '2026-04-21',
    content: fragment`
      <h2>Setting up automatic payments without overdrafting</h2>
      <p>Payment history is the largest factor in most credit scores, and autopay is the simplest way to make sure you
      never miss a due date. The risk is timing: a payment that pulls money before your paycheck arrives can cause an
      overdraft fee or a returned payment.</p>
      <h3>Line up your dates</h3>
      <ol>
        <li>Write down each payday and every bill's due date.</li>
        <li>Ask lenders to move due dates so that most fall a few days after payday. Many card issuers and loan
        servicers allow it.</li>
        <li>Schedule each payment two or three business days before its due date so it posts on time.</li>
      </ol>
      <h3>Choose the right autopay amount</h3>
      <ul>
        <li><strong>Loans:</strong> the fixed monthly payment, plus any extra you have budgeted.</li>
        <li><strong>Cards you pay in full:</strong> the statement balance.</li>
        <li><strong>Cards you are paying down:</strong> at least the minimum, with a fixed extra amount on the target
        card of your avalanche or snowball plan.</li>
      </ul>
      <h3>Build a buffer</h3>
      <p>Keep a cushion of $200 to $300 in checking so a small timing mismatch or an unexpected charge does not
      overdraw the account. Turn on low-balance alerts, and consider opting out of overdraft coverage for debit card
      purchases so that a purchase is declined instead of costing a fee.</p>
      <h3>Keep checking in</h3>
      <p>Autopay is not set-and-forget. Review your statements every month to catch errors or price increases, and
      update your payments when a balance is paid off. When a debt is gone, move its payment to the next debt or into
      savings rather than letting it blend back into spending.</p>
      <p>Done well, automation turns your debt payoff plan into something that happens every month whether you
      remember it or not.</p>
    `,
  },
];

/**
 * Every article, ascending by id (1…N). Decoded at load: a malformed entry is
 * a bug in the shipped data, so it fails the first import rather than a request.
 * @example ARTICLES.find((a) => a.id === 1)?.title === 'How to Read Your Credit Card Statement'
 */
export const ARTICLES: ReadonlyArray<Article> = ((): ReadonlyArray<Article> => {
  const decoded = t.array(Article).decode(RAW_ARTICLES);
  if (E.isLeft(decoded)) throw new Error('ARTICLES: shipped article data does not match the Article codec');
  return Object.freeze(decoded.right.map((a) => Object.freeze(a)));
})();
